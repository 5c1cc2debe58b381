// A store's lem and nete-volume-calcs recomputed by the DLEM from its own rtma and res, written as one new snapshot
// through the ingest path (revisions, as_of and the Iceberg tables as for any ingest), each day's status saying evap
// computed it and its qflag the res day's (OWEN's meaning: the storage input's quality).
import { formatDay, parseDay } from '../dates.js';
import { encodeFlags } from '../flags.js';
import { DLEM_VERSION } from '../model/dlem.js';
import { modelDatasets, modelVariables } from '../model/run.js';
import { firstReservoirDay, latestReservoirDay } from '../query/latest.js';
import { modelReservoirs } from '../query/modelled.js';
import { resolveReservoirVariables, withKeys } from '../query/plan.js';
import { reservoirSeriesMany } from '../query/series.js';
import { openStorage } from '../store/location.js';
import type { Snapshot } from '../store/open-snapshot.js';
import { openReadback } from '../store/readback.js';
import type { Storage } from '../store/storage.js';
import { roundValue } from '../units.js';
import { applyStaging } from './apply.js';
import { Staging } from './stage.js';

export interface RecomputeOptions {
  names?: readonly string[]; // default: every reservoir of the snapshot
  start?: string; // YYYY-MM-DD; default: the first day of the forcing
  end?: string; // default: the last day of the forcing
  dryRun?: boolean; // compute and compare, write nothing
  onProgress?: (done: number, total: number) => void; // reservoirs computed so far
}

export interface RecomputeSummary {
  reservoirs: number;
  days: number;
  values: number; // values computed (reservoir-days × variables)
  changed: number; // of them, those that differ from the stored value at the wire's rounding (or were not stored)
  largestChange: { name: string; date: string; variable: string; stored: number | null; computed: number } | null;
  snapshot: string | null; // the snapshot published (null on a dry run)
}

// reservoirs computed and staged at a time
const GROUP = 256;

/** Recomputes lem and nete-volume-calcs of `snapshot` (the store at `location`) and publishes them as a new snapshot. */
export async function recomputeStore(location: string | Storage, snapshot: Snapshot, options: RecomputeOptions = {}): Promise<RecomputeSummary> {
  const names = [...(options.names ?? snapshot.manifest.reservoirs.names)].sort();
  const forcing = ['rtma', 'res'];
  const startDay = options.start ? parseDay(options.start, 'start') : firstReservoirDay(snapshot.manifest, forcing);
  const endDay = options.end ? parseDay(options.end, 'end') : latestReservoirDay(snapshot.manifest, forcing);
  const summary: RecomputeSummary = { reservoirs: names.length, days: 0, values: 0, changed: 0, largestChange: null, snapshot: null };
  if (startDay === undefined || endDay === undefined || endDay < startDay || names.length === 0) return summary;
  summary.days = endDay - startDay + 1;
  const staging = new Staging();
  const stored = withKeys(resolveReservoirVariables([...modelVariables], [...modelDatasets]), 'metric');
  const qflagOfRes = { ...withKeys(resolveReservoirVariables(['depth_m'], ['res']), 'metric')[0]!, name: 'qflag', key: 'qflag' };
  const computed = encodeFlags('status', ['Computed'])[0]!;
  let largest = -1;
  for (let g = 0; g < names.length; g += GROUP) {
    const group = names.slice(g, g + GROUP);
    const run = await modelReservoirs(snapshot, group, startDay, endDay);
    const before = await reservoirSeriesMany(snapshot, group, [...stored, qflagOfRes], startDay, endDay);
    group.forEach((name, b) => {
      const held = before.get(name);
      const at = new Map<number, number>();
      if (held) for (let i = 0; i < held.days.length; i++) at.set(held.days[i]!, i);
      for (let t = 0; t < run.days; t++) {
        const day = startDay + t;
        const row = at.get(day);
        if (Number.isNaN(run.values.E_hs[b * run.days + t]!)) continue; // no forcing that day: the stored row stays
        for (const dataset of modelDatasets) {
          const part = staging.reservoir(dataset, day);
          stored.forEach((variable, j) => {
            if (variable.dataset !== dataset) return;
            const value = roundValue(run.values[variable.name as (typeof modelVariables)[number]][b * run.days + t]!);
            const old = row === undefined ? Number.NaN : (held!.columns[j]?.[row] ?? Number.NaN);
            summary.values++;
            if (!(old === value)) {
              summary.changed++;
              const change = Number.isNaN(old) ? Infinity : Math.abs(value - old);
              if (change > largest) {
                largest = change;
                summary.largestChange = { name, date: formatDay(day), variable: variable.name, stored: Number.isNaN(old) ? null : old, computed: value };
              }
            }
            part.set(name, day, part.variables.indexOf(variable.name), value);
          });
          const qflag = row === undefined ? Number.NaN : (held!.columns[stored.length]?.[row] ?? Number.NaN);
          part.set(name, day, part.variables.indexOf('qflag'), qflag);
          part.set(name, day, part.variables.indexOf('status'), computed);
        }
      }
    });
    options.onProgress?.(Math.min(names.length, g + GROUP), names.length);
  }
  if (options.dryRun) return summary;
  const storage = openStorage(location);
  const base = await openReadback(storage);
  try {
    const about = base?.manifest.about;
    const model = `evap DLEM ${DLEM_VERSION} (Zhao & Gao 2019; Zhao et al. 2024): lem and nete-volume-calcs computed by evap from the store's rtma and res, ${formatDay(startDay)} to ${formatDay(endDay)}`;
    const applied = await applyStaging(
      storage,
      base,
      staging,
      { reservoirs: new Map(), stations: new Map() },
      undefined,
      about ? { ...about, model } : undefined,
    );
    summary.snapshot = applied.snapshot;
  } finally {
    await base?.close();
  }
  return summary;
}
