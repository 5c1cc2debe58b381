// A recompute of whole dataset-years as columns: every reservoir's rows of a year built in place, group by group of
// names, and written over the year's files at once; the per-cell Staging maps cost more than the model at 10,000s of names.
import { type DatasetName, reservoirDatasets } from '../catalogue.js';
import { firstDayOfYear } from '../dates.js';
import { encodeFlags } from '../flags.js';
import { modelDatasets, modelVariables } from '../model/run.js';
import { partitionPoint } from '../order.js';
import { modelReservoirs } from '../query/modelled.js';
import { readNamesRows } from '../query/timeseries.js';
import type { Snapshot } from '../store/open-snapshot.js';
import { roundValue } from '../units.js';
import type { ReservoirRows, StoreWriter } from '../writer/write.js';
import type { ChangeTally } from './tally.js';

/** Values (rows × columns) held at once: dataset-years are built together up to this (512 MB), else one at a time. */
const VALUES_PER_PASS = 64_000_000;

const flags = ['qflag', 'status'] as const;
const datasetColumns = new Map<string, string[]>(modelDatasets.map((d) => [d, Object.keys(reservoirDatasets[d].variables)]));
// what a recomputed row replaces, and the res day's qflag it takes
const storedColumns = new Map<string, readonly string[]>([
  ...modelDatasets.map((d) => [d, [...datasetColumns.get(d)!, ...flags]] as const),
  ['res', ['qflag']],
]);

/** One dataset-year being built: rows of the names in order, each name's days ascending, up to `n`. */
interface YearRows {
  dataset: DatasetName;
  year: number;
  names: string[];
  days: Int32Array;
  values: Record<string, Float64Array>;
  n: number;
}

/**
 * Recomputes every reservoir (`names`, sorted: all of the snapshot's) over whole years of [startDay, endDay] in passes
 * (yearPasses), counting changes in `tally`, and with a writer replaces each of those dataset-years' files by the rows built.
 */
export async function recomputeYears(
  snapshot: Snapshot,
  names: readonly string[],
  passes: readonly (readonly Unit[])[],
  startDay: number,
  endDay: number,
  group: number,
  tally: ChangeTally,
  writer: StoreWriter | undefined,
  onGroup: () => void,
): Promise<void> {
  for (const pass of passes) {
    const from = Math.max(startDay, firstDayOfYear(pass[0]!.year));
    const to = Math.min(endDay, firstDayOfYear(pass[pass.length - 1]!.year + 1) - 1);
    const built = pass.map(({ dataset, year }) => allocateYear(dataset, year, names.length * daysOf(year, startDay, endDay)));
    const columns = new Map([...storedColumns].filter(([d]) => d === 'res' || pass.some((u) => u.dataset === d)));
    for (let g = 0; g < names.length; g += group) {
      // the run starts where a full recompute's does (the model looks only back): the same values whatever the pass
      const members = names.slice(g, g + group);
      const run = await modelReservoirs(snapshot, members, startDay, to);
      const held = await readNamesRows(snapshot, members, columns, from, to);
      members.forEach((name, b) => {
        const spans = held.get(name)!;
        const res = spans.get('res');
        for (const rows of built) {
          const span = spans.get(rows.dataset);
          const first = Math.max(from, firstDayOfYear(rows.year));
          const last = Math.min(to, firstDayOfYear(rows.year + 1) - 1);
          fillName(rows, name, first, last, run.values, b * run.days - startDay, span, res, tally);
        }
      });
      onGroup();
    }
    for (const rows of built.splice(0)) await writeYear(writer, rows);
  }
}

/** One dataset-year built as columns. */
interface Unit {
  dataset: DatasetName;
  year: number;
}

/** The whole years' dataset-years in passes: as many together as VALUES_PER_PASS holds, at least one. */
export function yearPasses(names: number, years: readonly number[], startDay: number, endDay: number): Unit[][] {
  const out: Unit[][] = [];
  let held = Infinity;
  for (const year of years) {
    for (const dataset of modelDatasets) {
      const values = names * daysOf(year, startDay, endDay) * (datasetColumns.get(dataset)!.length + flags.length);
      if (held + values <= VALUES_PER_PASS) {
        out[out.length - 1]!.push({ dataset, year });
        held += values;
      } else {
        out.push([{ dataset, year }]);
        held = values;
      }
    }
  }
  return out;
}

/** The days of a year within [startDay, endDay]. */
function daysOf(year: number, startDay: number, endDay: number): number {
  return Math.min(endDay, firstDayOfYear(year + 1) - 1) - Math.max(startDay, firstDayOfYear(year)) + 1;
}

function allocateYear(dataset: DatasetName, year: number, capacity: number): YearRows {
  const columns = [...datasetColumns.get(dataset)!, ...flags];
  return {
    dataset,
    year,
    names: new Array<string>(capacity),
    days: new Int32Array(capacity),
    values: Object.fromEntries(columns.map((c) => [c, new Float64Array(capacity)])),
    n: 0,
  };
}

const computed = encodeFlags('status', ['Computed'])[0]!;
const modelIndex = new Map<string, number>(modelVariables.map((v, i) => [v, i]));

interface Span {
  days: Int32Array;
  column(name: string): Float64Array | undefined;
}

/**
 * Appends one name's rows of [first, last] to a dataset-year: the computed day where the model has forcing (status
 * Computed, qflag the res day's), else the stored row as it was, if any. `offset` + day is the day's place in the run.
 */
function fillName(
  rows: YearRows,
  name: string,
  first: number,
  last: number,
  run: Record<string, Float64Array>,
  offset: number,
  span: Span | undefined,
  res: Span | undefined,
  tally: ChangeTally,
): void {
  const variables = datasetColumns.get(rows.dataset)!;
  const out = variables.map((v) => rows.values[v]!);
  const [qflagOut, statusOut] = [rows.values.qflag!, rows.values.status!];
  const computedColumns = variables.map((v) => run[v]!);
  const stored = [...variables, ...flags].map((v) => span?.column(v));
  const storedDays = span?.days;
  const resDays = res?.days;
  const resQflag = res?.column('qflag');
  const hasForcing = run.E_hs!;
  let o = storedDays ? partitionPoint(storedDays, (d) => d < first) : 0;
  let r = resDays ? partitionPoint(resDays, (d) => d < first) : 0;
  for (let day = first; day <= last; day++) {
    while (storedDays && o < storedDays.length && storedDays[o]! < day) o++;
    const row = storedDays && o < storedDays.length && storedDays[o] === day ? o : -1;
    const n = rows.n;
    if (Number.isNaN(hasForcing[offset + day]!)) {
      if (row < 0) continue; // no forcing that day: the stored row stays, as it was
      rows.names[n] = name;
      rows.days[n] = day;
      for (let j = 0; j < out.length; j++) out[j]![n] = stored[j]?.[row] ?? Number.NaN;
      qflagOut[n] = stored[out.length]?.[row] ?? Number.NaN;
      statusOut[n] = stored[out.length + 1]?.[row] ?? Number.NaN;
      rows.n++;
      continue;
    }
    rows.names[n] = name;
    rows.days[n] = day;
    for (let j = 0; j < out.length; j++) {
      const value = roundValue(computedColumns[j]![offset + day]!);
      const old = row < 0 ? Number.NaN : (stored[j]?.[row] ?? Number.NaN);
      tally.add(name, day, modelIndex.get(variables[j]!)!, variables[j]!, old, value);
      out[j]![n] = value;
    }
    while (resDays && r < resDays.length && resDays[r]! < day) r++;
    qflagOut[n] = resDays && r < resDays.length && resDays[r] === day ? (resQflag?.[r] ?? Number.NaN) : Number.NaN;
    statusOut[n] = computed;
    rows.n++;
  }
}

/** Replaces the dataset-year's files by the rows built (a dry run has no writer). */
async function writeYear(writer: StoreWriter | undefined, built: YearRows): Promise<void> {
  if (!writer) return;
  const held = writer.current.datasets[built.dataset]?.partitions.find((p) => p.year === built.year);
  writer.removeReservoirFiles(
    built.dataset,
    built.year,
    (held?.files ?? []).map((f) => f.path),
  );
  built.names.length = built.n;
  const rows: ReservoirRows = {
    names: built.names,
    days: built.days.subarray(0, built.n),
    values: Object.fromEntries(Object.entries(built.values).map(([v, column]) => [v, column.subarray(0, built.n)])),
  };
  await writer.addReservoirRows(built.dataset, built.year, rows);
}
