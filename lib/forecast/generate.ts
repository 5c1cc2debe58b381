// The forecast generator: on each issue date the DLEM runs on from that day's state (water temperature, depth, area)
// under an ensemble of weather futures that start near the day's weather and relax to the climatology, so the spread
// grows with lead and the skill falls towards the normal's. Deterministic per seed.

import { type ForecastVariable, MAX_LEAD } from '../forecast-variables.js';
import { allocateWeather, publishEvaporation, publishWeather, runPublished } from '../model/forcing.js';
import { Random } from '../model/random.js';
import type { ReservoirSpec } from '../model/reference.js';
import { createReservoirModel, type ReservoirState } from '../model/reservoir.js';
import { Calendar } from '../model/time.js';
import { CorrelatedRandom, truthShare } from './correlated.js';

/** One reservoir's ensemble of one issue: `members[variable][m * MAX_LEAD + lead - 1]`, metric, rounded to 4 decimals. */
export interface IssueEnsemble {
  name: string;
  issued: number; // epoch day of the issue: its state is that day's end; lead 1 is the next day
  count: number; // members
  members: Record<ForecastVariable, Float64Array>;
}

/** How spread out the members' starting anomalies are, as a share of each anomaly's daily noise: "near" the day's weather. */
const START_SPREAD = 0.3;

/**
 * The ensembles of one reservoir for every issue day in [firstIssue, lastIssue] (epoch days), in order. The model
 * starts its state at `origin` (as the store's generator does, so the state on an issue day is the estimates' own).
 */
export function* forecastReservoir(
  spec: ReservoirSpec,
  seed: number,
  origin: number,
  firstIssue: number,
  lastIssue: number,
  count: number,
): Generator<IssueEnsemble> {
  const model = createReservoirModel(spec, seed, origin);
  // one issue's state at a time: simulate to the issue day, then run the members from its end state
  for (let issued = firstIssue; issued <= lastIssue; issued++) {
    model.simulate(issued, issued);
    yield runMembers(spec, seed, model.state(), count);
  }
}

/** The members of one issue run from one day's state: every member's weather, then the DLEM over them all at once. */
function runMembers(spec: ReservoirSpec, seed: number, state: ReservoirState, count: number): IssueEnsemble {
  const cells = count * MAX_LEAD;
  const columns = { ...allocateWeather(cells), depth_m: new Float64Array(cells).fill(state.depth), area_m2: new Float64Array(cells).fill(state.area) };
  const months = new Uint8Array(MAX_LEAD);
  for (let m = 0; m < count; m++) {
    let rng: CorrelatedRandom | undefined;
    const own = new Random(seed, `${spec.name}\u0000forecast\u0000${state.day}\u0000${m}`);
    const weather = state.weather.fork((truth) => (rng = new CorrelatedRandom(truth.clone(), own)), START_SPREAD, own);
    const calendar = new Calendar(state.day + 1);
    for (let lead = 1; lead <= MAX_LEAD; lead++, calendar.advance()) {
      rng!.rho = truthShare(lead);
      weather.step(calendar.doy);
      if (state.storageDraws) rng!.skipStorageDraw();
      months[lead - 1] = calendar.month;
      publishWeather(weather, columns, m * MAX_LEAD + lead - 1);
    }
  }
  // the depth and area are held at the issue day's: storage changes over months, not within four weeks
  const lakes = { lat: new Float64Array(count).fill(spec.lat), elev: new Float64Array(count).fill(spec.elevM) };
  const out = runPublished(lakes, columns, months, new Float64Array(count).fill(state.water), count, MAX_LEAD);
  const { E_hs, NetE, E_volume, NetE_volume } = publishEvaporation(out, columns.pr, columns.area_m2);
  return { name: spec.name, issued: state.day, count, members: { E_hs, pr: columns.pr, NetE, E_volume, NetE_volume } };
}
