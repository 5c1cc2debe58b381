// Shared helpers for the model tests: dates to epoch days, reference lookups, simple statistics.
import type { ReservoirSpec } from '../../../lib/model/index.js';
import { referenceReservoirs } from '../../../lib/model/index.js';

/** Epoch day of a YYYY-MM-DD date. */
export function day(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / 86_400_000;
}

/** Month (1-12) of an epoch day. */
export function monthOf(epochDay: number): number {
  return new Date(epochDay * 86_400_000).getUTCMonth() + 1;
}

/** The reference reservoir with this name. */
export function reservoir(name: string): ReservoirSpec {
  const spec = referenceReservoirs.find((r) => r.name === name);
  if (!spec) throw new Error(`no reference reservoir ${name}`);
  return spec;
}

/** Mean of the entries of a series whose epoch day (first entry = startDay) passes a test; NaN entries are skipped. */
export function meanWhere(values: Float64Array, startDay: number, keep: (epochDay: number) => boolean): number {
  let sum = 0;
  let n = 0;
  values.forEach((v, i) => {
    if (!Number.isNaN(v) && keep(startDay + i)) {
      sum += v;
      n++;
    }
  });
  return sum / n;
}

/** Saturation vapour pressure, kPa (Tetens), written out independently of the model. */
export function tetens(t: number): number {
  return 0.6108 * Math.exp((17.27 * t) / (t + 237.3));
}

/** True when a number (of magnitude below 1e9) has at most 4 decimals. */
export function hasFourDecimals(x: number): boolean {
  return Math.abs(x * 1e4 - Math.round(x * 1e4)) < 1e-2;
}
