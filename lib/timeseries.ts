// Wide wire records from partitions: select rows and columns, convert units, round, sort by name then date.
import { variableKey, type UnitSystem } from './catalogue.js';
import { yearOfDay } from './dates.js';
import { findRun, type Manifest, type ReservoirPartition, type StationPartition } from './manifest.js';
import type { DecodedGroup, PartitionReader, RowSpan } from './partitions.js';
import type { ResolvedVariable } from './query.js';
import { RecordBuilder, type Block, type OutputKind } from './records.js';
import type { WireRecord } from './types.js';

/** What record building needs from an opened store. */
export interface TimeseriesSource {
  manifest: Manifest;
  reader: PartitionReader;
  reservoirIndex: ReadonlyMap<string, number>;
  partitionsByYear: ReadonlyMap<string, ReadonlyMap<number, ReservoirPartition>>; // dataset -> year -> partition
}

/** Attributes attached to every record of a name (also_return); empty when none were asked for. */
export type Attach = (name: string) => WireRecord;

/** Adds wire keys to resolved variables for a unit system. */
export function withKeys(variables: readonly Omit<ResolvedVariable, 'key'>[], system: UnitSystem): ResolvedVariable[] {
  return variables.map((v) => ({ ...v, key: variableKey(v.name, v.unit, system) }));
}

/** The columns of the records, in order: what a CSV header shows. */
export function recordColumns(nameKey: string, variables: readonly ResolvedVariable[], attributes: readonly string[]): string[] {
  return [nameKey, 'start_date', 'end_date', ...variables.map((v) => v.key), ...attributes.filter((a) => a !== nameKey)];
}

/** Reservoir records over [startDay, endDay], one batch per reservoir and year, in name then date order. */
export async function* reservoirRange(
  source: TimeseriesSource,
  names: readonly string[],
  variables: readonly ResolvedVariable[],
  startDay: number,
  endDay: number,
  system: UnitSystem,
  attach: Attach,
  kind: OutputKind = 'records',
): AsyncGenerator<unknown[]> {
  const datasets = [...new Set(variables.map((v) => v.dataset!))];
  const firstYear = yearOfDay(startDay);
  const lastYear = yearOfDay(endDay);
  const builder = new RecordBuilder('RES_NAME', variables, system, kind);
  for (const name of names) {
    const nameIndex = source.reservoirIndex.get(name)!;
    const extra = attach(name);
    for (let year = firstYear; year <= lastYear; year++) {
      const spans = new Map<string, RowSpan>();
      for (const dataset of datasets) {
        const partition = source.partitionsByYear.get(dataset)?.get(year);
        const run = partition && findRun(partition, nameIndex);
        if (run) spans.set(dataset, clipSpan(await source.reader.rows(partition, run.start, run.end), startDay, endDay));
      }
      const block = alignSpans(spans, variables);
      if (block.days.length === 0) continue;
      const out: unknown[] = [];
      builder.emit(out, name, block, extra);
      yield out;
    }
  }
}

/** Every reservoir's records on one date, in name order, as one batch. */
export async function reservoirsOnDate(
  source: TimeseriesSource,
  variables: readonly ResolvedVariable[],
  day: number,
  system: UnitSystem,
  attach: Attach,
  kind: OutputKind = 'records',
): Promise<unknown[]> {
  const datasets = [...new Set(variables.map((v) => v.dataset!))];
  const year = yearOfDay(day);
  const names = source.manifest.reservoirs.names;
  const size = source.manifest.rowGroupSize;
  const seen = new Uint8Array(names.length); // names with a row on the day in some dataset
  const columns: (Float64Array | undefined)[] = variables.map(() => undefined); // by name index; NaN (null) where not held
  for (const dataset of datasets) {
    const partition = source.partitionsByYear.get(dataset)?.get(year);
    if (!partition) continue;
    const groups = await source.reader.allGroups(partition);
    const held = variables.flatMap((v, j) => (v.dataset === dataset ? [j] : []));
    const { names: runNames, starts } = partition.runs;
    for (let r = 0; r < runNames.length; r++) {
      const end = r + 1 < starts.length ? starts[r + 1]! : partition.rows;
      const row = findDay(groups, size, starts[r]!, end, day);
      if (row < 0) continue;
      const nameIndex = runNames[r]!;
      const group = groups[Math.floor(row / size)]!;
      const local = row % size;
      seen[nameIndex] = 1;
      for (const j of held) {
        const column = group.columns.get(variables[j]!.name);
        if (column) (columns[j] ??= new Float64Array(names.length).fill(NaN))[nameIndex] = column[local]!;
      }
    }
  }
  const out: unknown[] = [];
  const builder = new RecordBuilder('RES_NAME', variables, system, kind);
  const block: Block = { days: new Int32Array(names.length).fill(day), columns };
  for (let i = 0; i < names.length; i++) if (seen[i]) builder.emit(out, names[i]!, block, attach(names[i]!), i, i + 1);
  return out;
}

/** Station records over [startDay, endDay], one batch per station, in name then date order. */
export async function* stationRange(
  source: TimeseriesSource,
  names: readonly string[],
  variables: readonly ResolvedVariable[],
  startDay: number,
  endDay: number,
  system: UnitSystem,
  attach: Attach,
  kind: OutputKind = 'records',
): AsyncGenerator<unknown[]> {
  const builder = new RecordBuilder('STA_NAME', variables, system, kind);
  for (const name of names) {
    const partition = source.manifest.stations.partitions[name];
    if (!partition) continue;
    const span = await stationSpan(source, partition, startDay, endDay);
    if (span.days.length === 0) continue;
    const block: Block = { days: span.days, columns: variables.map((v) => span.column(v.name)) };
    const out: unknown[] = [];
    builder.emit(out, name, block, attach(name));
    yield out;
  }
}

/** Every station's records on one date, in name order. */
export async function stationsOnDate(
  source: TimeseriesSource,
  variables: readonly ResolvedVariable[],
  day: number,
  system: UnitSystem,
  attach: Attach,
  kind: OutputKind = 'records',
): Promise<unknown[]> {
  const out: unknown[] = [];
  const builder = new RecordBuilder('STA_NAME', variables, system, kind);
  for (const name of source.manifest.stations.names) {
    const partition = source.manifest.stations.partitions[name];
    if (!partition || partition.rows === 0) continue;
    // the one row group that can hold the day, and the row in it: no spans, no copies, for a one-row answer
    const g = lowerBound(partition.groupFirstDays, day + 1) - 1;
    if (g < 0) continue;
    const group = await source.reader.group(partition, g);
    const row = lowerBound(group.days, day);
    if (group.days[row] !== day) continue;
    builder.emit(out, name, { days: group.days, columns: variables.map((v) => group.columns.get(v.name)) }, attach(name), row, row + 1);
  }
  return out;
}

/** The rows of a station file within [startDay, endDay], found by binary search over its row groups. */
async function stationSpan(source: TimeseriesSource, partition: StationPartition, startDay: number, endDay: number): Promise<RowSpan> {
  // the groups that can hold the range: from the last one starting on or before startDay to the last one starting on or before endDay
  const firstDays = partition.groupFirstDays;
  const size = source.manifest.rowGroupSize;
  const first = Math.max(0, lowerBound(firstDays, startDay + 1) - 1);
  const last = lowerBound(firstDays, endDay + 1) - 1;
  if (partition.rows === 0 || last < first) return emptySpan;
  const span = await source.reader.rows(partition, first * size, Math.min(partition.rows, (last + 1) * size));
  return clipSpan(span, startDay, endDay);
}

const emptySpan: RowSpan = { days: new Int32Array(0), column: () => undefined };

/** Narrows a span to the rows dated within [startDay, endDay] (its days ascend). */
function clipSpan(span: RowSpan, startDay: number, endDay: number): RowSpan {
  const from = lowerBound(span.days, startDay);
  const to = lowerBound(span.days, endDay + 1);
  if (from === 0 && to === span.days.length) return span;
  return { days: span.days.subarray(from, to), column: (name) => span.column(name)?.subarray(from, to) };
}

/** Lines up the spans of several datasets on one list of days (usually they hold the same days). */
function alignSpans(spans: Map<string, RowSpan>, variables: readonly ResolvedVariable[]): Block {
  const list = [...spans.values()];
  if (list.length === 0) return { days: [], columns: [] };
  const base = list[0]!.days;
  if (list.every((s) => sameDays(s.days, base))) {
    return { days: base, columns: variables.map((v) => spans.get(v.dataset!)?.column(v.name)) };
  }
  const days = [...new Set(list.flatMap((s) => [...s.days]))].sort((a, b) => a - b);
  const columns = variables.map((v) => {
    const span = spans.get(v.dataset!);
    const column = span?.column(v.name);
    if (!span || !column) return undefined;
    const at = new Map<number, number>();
    span.days.forEach((d, i) => at.set(d, column[i]!));
    return days.map((d) => at.get(d) ?? NaN);
  });
  return { days, columns };
}

function sameDays(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function lowerBound(days: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (days[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first global row index in [start, end) whose day is >= `day` (rows ascend by day within the range). */
function lowerBoundRows(groups: readonly DecodedGroup[], size: number, end: number, day: number, start = 0): number {
  let lo = start;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (groups[Math.floor(mid / size)]!.days[mid % size]! < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The global row index of `day` within rows [start, end) of a file's groups, or -1. */
function findDay(groups: readonly DecodedGroup[], size: number, start: number, end: number, day: number): number {
  const row = lowerBoundRows(groups, size, end, day, start);
  return row < end && groups[Math.floor(row / size)]!.days[row % size] === day ? row : -1;
}
