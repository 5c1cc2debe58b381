// evap/model: the Daily Lake Evaporation Model on its own, for scripts that compute evaporation (docs/model.md); a
// script that reads data (evap) loads none of it.
export { allocateOutputs, DLEM_VERSION, type DlemForcing, type DlemLakes, fetchSectors, Lerr, outputNames, runDlem, sectorOf } from './model/dlem.js';
export { fetchFromArea } from './model/fetch.js';
export { ForcingError, parseForcingCsv } from './model/forcing-csv.js';
export { fetchFromPolygons, polygonsFromGeoJson } from './model/outline.js';
export {
  type ForcingColumns,
  type ForcingVariable,
  forcingVariables,
  type Lake,
  type ModelOptions,
  type ModelResult,
  type ModelVariable,
  modelDatasets,
  modelVariables,
  netEvaporation,
  runModel,
} from './model/run.js';
export { applyScenario, checkScenario, describeScenario, type Scenario, type ScenarioOptions, scenarioParameters } from './model/scenario.js';
