// A store's lem and nete-volume-calcs recomputed by the DLEM from its own rtma and res, written as one new snapshot
// through the ingest path (revisions, as_of and the Iceberg tables as for any ingest), each day's status saying evap
// computed it and its qflag the res day's (OWEN's meaning: the storage input's quality).
import { formatDay, parseDay, yearOfDay } from '../dates.js';
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
import { createStoreWriter } from '../writer/write.js';
import { writeStaging } from './apply.js';
import { recomputeYears, yearPasses } from './recompute-years.js';
import { Staging } from './stage.js';
import { ChangeTally, type LargestChange } from './tally.js';

export interface RecomputeOptions {
  names?: readonly string[]; // default: every reservoir of the snapshot
  start?: string; // YYYY-MM-DD; default: the first day of the forcing
  end?: string; // default: the last day of the forcing
  dryRun?: boolean; // compute and compare, write nothing
  onProgress?: (done: number, total: number) => void; // reservoirs computed so far
  columnar?: boolean; // false: every day through Staging, as a partial recompute (tests compare the two)
}

export interface RecomputeSummary {
  reservoirs: number;
  days: number;
  values: number; // values computed (reservoir-days × variables)
  changed: number; // of them, those that differ from the stored value at the wire's rounding (or were not stored)
  largestChange: LargestChange | null;
  snapshot: string | null; // the snapshot published (null on a dry run)
}

// reservoirs computed at a time
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
  const tally = new ChangeTally();
  const whole = options.columnar === false ? [] : wholeYears(snapshot, names, startDay, endDay);
  const storage = options.dryRun ? undefined : openStorage(location);
  const base = storage && (await openReadback(storage));
  try {
    const writer = storage && createStoreWriter(storage, { base: base?.manifest });
    const about = base?.manifest.about;
    const model = `evap DLEM ${DLEM_VERSION} (Zhao & Gao 2019; Zhao et al. 2024): lem and nete-volume-calcs computed by evap from the store's rtma and res, ${formatDay(startDay)} to ${formatDay(endDay)}`;
    if (writer && about) writer.setAbout({ ...about, model });
    const passes = yearPasses(names.length, whole, startDay, endDay);
    const staged = whole.length < yearOfDay(endDay) - yearOfDay(startDay) + 1;
    const groups = Math.ceil(names.length / GROUP) * (passes.length + (staged ? 1 : 0));
    let done = 0;
    // reservoirs computed so far, counted over every pass of the names
    const onGroup = () => options.onProgress?.(Math.min(names.length, Math.round((++done / groups) * names.length)), names.length);
    await recomputeYears(snapshot, names, passes, startDay, endDay, GROUP, tally, writer, onGroup);
    const staging = await stageRecompute(snapshot, names, startDay, endDay, new Set(whole), tally, onGroup);
    const written = writer ? (await writeStaging(writer, base, staging)).partitions + whole.length : 0;
    if (writer && written > 0) summary.snapshot = (await writer.commit()).snapshot;
  } finally {
    await base?.close();
  }
  summary.values = tally.values;
  summary.changed = tally.changed;
  summary.largestChange = tally.largest;
  return summary;
}

/** The years of [startDay, endDay] whose every partition of lem and nete-volume-calcs lies inside it, when every reservoir is recomputed. */
function wholeYears(snapshot: Snapshot, names: readonly string[], startDay: number, endDay: number): number[] {
  const all = snapshot.manifest.reservoirs.names;
  const asked = new Set(names);
  if (asked.size !== names.length || asked.size !== new Set(all).size || !all.every((n) => asked.has(n))) return [];
  const [start, end] = [formatDay(startDay), formatDay(endDay)];
  const years: number[] = [];
  for (let year = yearOfDay(startDay); year <= yearOfDay(endDay); year++) {
    const partitions = modelDatasets.map((d) => snapshot.manifest.datasets[d]?.partitions.find((p) => p.year === year));
    if (partitions.every((p) => !p || (p.start >= start && p.end <= end))) years.push(year);
  }
  return years;
}

/** Stages the recomputed values of the days outside the `whole` years (those are written as columns). */
async function stageRecompute(
  snapshot: Snapshot,
  names: readonly string[],
  startDay: number,
  endDay: number,
  whole: ReadonlySet<number>,
  tally: ChangeTally,
  onGroup: () => void,
): Promise<Staging> {
  const staging = new Staging();
  let [first, last] = [startDay, endDay];
  while (first <= last && whole.has(yearOfDay(first))) first++;
  while (last >= first && whole.has(yearOfDay(last))) last--;
  if (first > last) return staging;
  const stored = withKeys(resolveReservoirVariables([...modelVariables], [...modelDatasets]), 'metric');
  const qflagOfRes = { ...withKeys(resolveReservoirVariables(['depth_m'], ['res']), 'metric')[0]!, name: 'qflag', key: 'qflag' };
  const computed = encodeFlags('status', ['Computed'])[0]!;
  const order = stored.map((v) => (modelVariables as readonly string[]).indexOf(v.name));
  for (let g = 0; g < names.length; g += GROUP) {
    const group = names.slice(g, g + GROUP);
    const run = await modelReservoirs(snapshot, group, startDay, last);
    const before = await reservoirSeriesMany(snapshot, group, [...stored, qflagOfRes], first, last);
    group.forEach((name, b) => {
      const held = before.get(name);
      const at = new Map<number, number>();
      if (held) for (let i = 0; i < held.days.length; i++) at.set(held.days[i]!, i);
      for (let day = first; day <= last; day++) {
        if (whole.has(yearOfDay(day))) continue;
        const t = day - startDay;
        const row = at.get(day);
        if (Number.isNaN(run.values.E_hs[b * run.days + t]!)) continue; // no forcing that day: the stored row stays
        for (const dataset of modelDatasets) {
          const part = staging.reservoir(dataset, day);
          stored.forEach((variable, j) => {
            if (variable.dataset !== dataset) return;
            const value = roundValue(run.values[variable.name as (typeof modelVariables)[number]][b * run.days + t]!);
            const old = row === undefined ? Number.NaN : (held!.columns[j]?.[row] ?? Number.NaN);
            tally.add(name, day, order[j]!, variable.name, old, value);
            part.set(name, day, part.variables.indexOf(variable.name), value);
          });
          const qflag = row === undefined ? Number.NaN : (held!.columns[stored.length]?.[row] ?? Number.NaN);
          part.set(name, day, part.variables.indexOf('qflag'), qflag);
          part.set(name, day, part.variables.indexOf('status'), computed);
        }
      }
    });
    onGroup();
  }
  return staging;
}
