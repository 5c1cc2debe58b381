// The forecast variables as GET /forecast/info/list_variables lists them: apart from the queries (lib/forecast/query.ts),
// so that a store answers it without loading them.
import { unitLabel } from '../catalogue.js';
import { forecastVariableInfo, forecastVariables, statisticValues } from '../forecast-variables.js';
import { allowed } from '../query/plan.js';

export type ForecastVariableInfo = { api_name: string; description: string; units_metric: string; units_english: string; statistics: string };

/** GET /forecast/info/list_variables: the forecast variables with their units and the statistics kept. */
export function listForecastVariables(): ForecastVariableInfo[] {
  return forecastVariables.map((v) => {
    const info = forecastVariableInfo(v);
    return {
      api_name: v,
      description: info.description,
      units_metric: unitLabel(info.unit, 'metric'),
      units_english: unitLabel(info.unit, 'english'),
      statistics: allowed(statisticValues),
    };
  });
}
