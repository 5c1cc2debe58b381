// The what-if path (/model/reservoirs/daterange): lem and nete-volume-calcs computed by the DLEM from the store's
// forcing under a scenario (docs/model.md), admitted like every heavy answer, the scenario echoed in a header.
import { checkScenario, describeScenario } from '../lib/model/scenario.js';
import { timeseriesAnswer } from './answers.js';
import { type Route, tableRoute } from './route.js';

/** The model's route. */
export function modelRoutes(): Route[] {
  return [
    tableRoute(
      'reservoirModel',
      {
        tag: 'Model',
        summary: 'What if: evaporation computed by the DLEM from the stored weather and reservoir state under a scenario (daily or interval totals)',
      },
      async ({ options, format }, { store, admit }) => {
        const scenario = describeScenario(checkScenario(options)); // refused (422) before anything is read
        const response = await timeseriesAnswer(format, admit(store.streamReservoirModel(options)));
        response.headers.set('x-evap-scenario', scenario === '' ? 'baseline' : scenario);
        return response;
      },
    ),
  ];
}
