// The forecast paths (/forecast/...): their parameters are the operations table's (lib/operations.ts), the answers the
// store's forecast methods (lib/forecast/, docs/forecasts.md).
import { listResponse } from './answers.js';
import { type Route, recordsRoute, tableRoute } from './route.js';

const variableColumns = ['api_name', 'description', 'units_metric', 'units_english', 'statistics'];

/** The six forecast routes. */
export function forecastRoutes(): Route[] {
  return [
    recordsRoute('forecastDaily', {
      tag: 'Forecast',
      summary: 'The 28-day ensemble evaporation forecast of one issue (latest by default): a record per reservoir and lead day',
    }),
    recordsRoute('forecastLead', {
      tag: 'Forecast',
      summary: 'Per valid date, the forecast issued lead days before, with the estimate that came ("<variable> (<unit>) observed")',
    }),
    recordsRoute('forecastTotal', { tag: 'Forecast', summary: 'The statistics of the total over the leads of one issue, made from the members (sum first)' }),
    recordsRoute('forecastVerification', {
      tag: 'Forecast',
      summary: 'How good past forecasts were: n, bias, mae, rmse, crps, coverage_80, mae_normal and skill per reservoir, variable and lead',
    }),
    tableRoute(
      'listForecastIssues',
      { tag: 'Forecast', summary: 'Per reservoir, the first and last issue date of its forecasts' },
      async ({ options, format }, { store }) => {
        const records = await store.listForecastIssues(options.names);
        return listResponse(format, records, records, ['RES_NAME', 'start_date', 'end_date']);
      },
    ),
    tableRoute(
      'listForecastVariables',
      { tag: 'Forecast', summary: 'The forecast variables, their units and the statistics kept' },
      ({ options, format }, { store }) => {
        const records = store.listForecastVariables(options.names);
        return listResponse(format, records, records, variableColumns);
      },
    ),
  ];
}
