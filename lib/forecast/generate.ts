// The forecast generator: on each issue date the physical lake model runs on from that day's state (water
// temperature, heat storage, area) under an ensemble of weather futures that start near the day's weather and relax
// to the climatology, so the spread grows with lead and the skill falls towards the normal's. Deterministic per seed.

import { Random } from '../model/random.js';
import type { ReservoirSpec } from '../model/reference.js';
import { createReservoirModel, type ReservoirState } from '../model/reservoir.js';
import { round4 } from '../model/round.js';
import { Calendar } from '../model/time.js';
import { CorrelatedRandom, truthShare } from './correlated.js';
import { type ForecastVariable, forecastVariables, MAX_LEAD } from './variables.js';

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
  // one issue's state at a time: simulate to the issue day, observing its end state, then run the members from it
  for (let issued = firstIssue; issued <= lastIssue; issued++) {
    let state: ReservoirState | undefined;
    model.simulate(issued, issued, (s) => {
      state = s;
    });
    yield runMembers(spec.name, seed, state!, count);
  }
}

/** The members of one issue run from one day's state. */
function runMembers(name: string, seed: number, state: ReservoirState, count: number): IssueEnsemble {
  const members = {} as Record<ForecastVariable, Float64Array>;
  for (const v of forecastVariables) members[v] = new Float64Array(count * MAX_LEAD);
  for (let m = 0; m < count; m++) {
    let rng: CorrelatedRandom | undefined;
    const own = new Random(seed, `${name}\u0000forecast\u0000${state.day}\u0000${m}`);
    const weather = state.weather.fork((truth) => (rng = new CorrelatedRandom(truth.clone(), own)), START_SPREAD, own);
    const lake = state.lake.fork();
    const calendar = new Calendar(state.day + 1);
    for (let lead = 1; lead <= MAX_LEAD; lead++, calendar.advance()) {
      rng!.rho = truthShare(lead);
      weather.step(calendar.doy);
      if (state.storageDraws) rng!.skipStorageDraw();
      lake.step(weather, state.depth, state.fetch);
      // the area is held at the issue day's: storage changes over months, not within four weeks
      const i = m * MAX_LEAD + lead - 1;
      const eHs = round4(lake.eHs);
      const pr = round4(weather.pr);
      const netE = round4(eHs - pr);
      members.E_hs[i] = eHs;
      members.pr[i] = pr;
      members.NetE[i] = netE;
      members.E_volume[i] = round4((eHs / 1000) * state.area);
      members.NetE_volume[i] = round4((netE / 1000) * state.area);
    }
  }
  return { name, issued: state.day, count, members };
}
