// The DLEM over a store's own forcing: many reservoirs at once, after a year of spin-up, with or without a scenario.
import { ymd } from '../dates.js';
import { allocateOutputs, runDlem } from '../model/dlem.js';
import { fetchFromArea } from '../model/fetch.js';
import { firstFinite, type ModelVariable, modelVariables, netEvaporation } from '../model/run.js';
import { applyScenario, type Scenario } from '../model/scenario.js';
import type { Snapshot } from '../store/open-snapshot.js';
import { readStoreForcing } from './forcing.js';

/** Days run before the first day answered, so that the water temperature no longer depends on where the run began (docs/model.md). */
export const SPIN_UP_DAYS = 365;

/** The outputs of `names` over [startDay, startDay + days): body b's day t at b × days + t. */
interface ModelledReservoirs {
  names: readonly string[];
  startDay: number;
  days: number;
  values: Record<ModelVariable, Float64Array>;
}

/** Runs the model over the names' stored forcing for [startDay, endDay], spun up from SPIN_UP_DAYS before. */
export async function modelReservoirs(
  s: Snapshot,
  names: readonly string[],
  startDay: number,
  endDay: number,
  scenario: Scenario = {},
): Promise<ModelledReservoirs> {
  const spinStart = startDay - SPIN_UP_DAYS;
  const input = await readStoreForcing(s, names, spinStart, endDay);
  const { forcing, days: span } = input;
  applyScenario(scenario, { ta: forcing.ta, vpd: forcing.vpd, u2: forcing.u2, depth: forcing.depth, area: input.area });
  forcing.fetch = input.area.map(fetchFromArea);
  const months = Uint8Array.from({ length: span }, (_, t) => ymd(spinStart + t)[1]);
  const water = new Float64Array(names.length).map((_, b) => firstFinite(forcing.ta, b * span, (b + 1) * span));
  const tds = scenario.tds === undefined ? undefined : new Float64Array(names.length).fill(scenario.tds);
  const out = allocateOutputs(names.length * span);
  runDlem({ lat: input.lat, elev: input.elev, tds }, forcing, months, water, out, names.length, span);
  const all = { ...out, ...netEvaporation(out.E_hs, input.pr, input.area) };
  const days = endDay - startDay + 1;
  const values = {} as Record<ModelVariable, Float64Array>;
  for (const name of modelVariables) {
    const column = new Float64Array(names.length * days);
    for (let b = 0; b < names.length; b++) column.set(all[name].subarray(b * span + SPIN_UP_DAYS, (b + 1) * span), b * days);
    values[name] = column;
  }
  return { names, startDay, days, values };
}
