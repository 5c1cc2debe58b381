// A store's own forcing of the DLEM (rtma weather, res state, metadata) for many reservoirs over a span of days, laid
// out as the kernel reads it: body-major columns of bodies × days, NaN where a day is not held.
import type { DlemForcing } from '../model/dlem.js';
import type { Snapshot } from '../store/open-snapshot.js';
import { resolveReservoirVariables, withKeys } from './plan.js';
import { reservoirSeriesMany } from './series.js';

/** The stored variables the model reads, in this order. */
const read = ['srad', 'tmmx_c', 'tmmn_c', 'vpd_kpa', 'vs2m', 'th', 'pres_pa', 'pr', 'depth_m', 'area_m2'] as const;
const variables = withKeys(resolveReservoirVariables(read, ['rtma', 'res']), 'metric');

/** Forcing of `names` over [startDay, startDay + days): body b's day t at b × days + t. */
interface StoreForcing {
  names: readonly string[];
  startDay: number;
  days: number;
  lat: Float64Array; // by body, from the metadata's LAT
  elev: Float64Array; // ELEV_M
  forcing: Required<Omit<DlemForcing, 'fetch'>> & { fetch?: Float64Array };
  pr: Float64Array; // mm
  area: Float64Array; // m2
}

/** Reads the forcing of the names (sorted) over the days from the snapshot. */
export async function readStoreForcing(s: Snapshot, names: readonly string[], startDay: number, endDay: number): Promise<StoreForcing> {
  const days = endDay - startDay + 1;
  const cells = names.length * days;
  const columns = read.map(() => new Float64Array(cells).fill(Number.NaN));
  const blocks = await reservoirSeriesMany(s, names, variables, startDay, endDay);
  names.forEach((name, b) => {
    const block = blocks.get(name);
    if (!block) return;
    for (let i = 0; i < block.days.length; i++) {
      const at = b * days + (block.days[i]! - startDay);
      for (let j = 0; j < read.length; j++) {
        const column = block.columns[j];
        if (column) columns[j]![at] = column[i]!;
      }
    }
  });
  const [srad, tmax, tmin, vpd, u2, th, pres, pr, depth, area] = columns as [Float64Array, ...Float64Array[]];
  const ta = tmax!.map((high, i) => (high + tmin![i]!) / 2);
  const pressure = pres!.map((pa) => pa / 1000);
  const lat = new Float64Array(names.length);
  const elev = new Float64Array(names.length);
  names.forEach((name, b) => {
    const row = s.reservoirs.byName.get(name);
    lat[b] = numberOr(row?.LAT, Number.NaN);
    elev[b] = numberOr(row?.ELEV_M, 0);
  });
  return { names, startDay, days, lat, elev, forcing: { srad, ta, vpd: vpd!, u2: u2!, th: th!, depth: depth!, pressure }, pr: pr!, area: area! };
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
