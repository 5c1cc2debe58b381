// Wide wire records from partitions: select rows and columns, convert units, round, sort by name then date.
import type { UnitSystem } from './catalogue.js';
import { variableKey } from './catalogue.js';
import { formatDay, yearOfDay } from './dates.js';
import { findRun, type Manifest, type ReservoirPartition, type StationPartition } from './manifest.js';
import type { DecodedGroup, PartitionReader, RowSpan } from './partitions.js';
import type { ResolvedVariable } from './query.js';
import type { WireRecord } from './types.js';
import { wireConverter } from './units.js';

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

/** Rows of several columns for one name, aligned on `days`. */
interface Block {
  days: ArrayLike<number>;
  columns: (ArrayLike<number> | undefined)[]; // parallel to the variables; undefined when not held
}

/** Builds the records of one name from a block, converting and rounding each value. */
function emitBlock(out: WireRecord[], nameKey: string, name: string, block: Block, variables: readonly ResolvedVariable[], system: UnitSystem, extra: WireRecord): void {
  const convert = variables.map((v) => wireConverter(v.unit, system));
  const extraKeys = Object.keys(extra);
  for (let i = 0; i < block.days.length; i++) {
    const date = formatDay(block.days[i]!);
    const record: WireRecord = { [nameKey]: name, start_date: date, end_date: date };
    for (let j = 0; j < variables.length; j++) {
      const column = block.columns[j];
      record[variables[j]!.key] = column ? convert[j]!(column[i]!) : null;
    }
    for (const k of extraKeys) if (k !== nameKey) record[k] = extra[k]!;
    out.push(record);
  }
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
): AsyncGenerator<WireRecord[]> {
  const datasets = [...new Set(variables.map((v) => v.dataset!))];
  const firstYear = yearOfDay(startDay);
  const lastYear = yearOfDay(endDay);
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
      const out: WireRecord[] = [];
      emitBlock(out, 'RES_NAME', name, block, variables, system, extra);
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
): Promise<WireRecord[]> {
  const datasets = [...new Set(variables.map((v) => v.dataset!))];
  const year = yearOfDay(day);
  const values = new Map<number, Map<string, number>>(); // name index -> variable -> value
  for (const dataset of datasets) {
    const partition = source.partitionsByYear.get(dataset)?.get(year);
    if (!partition) continue;
    const groups = await source.reader.allGroups(partition);
    const size = source.manifest.rowGroupSize;
    const held = variables.filter((v) => v.dataset === dataset);
    partition.runs.names.forEach((nameIndex, r) => {
      const end = r + 1 < partition.runs.starts.length ? partition.runs.starts[r + 1]! : partition.rows;
      const row = findDay(groups, size, partition.runs.starts[r]!, end, day);
      if (row < 0) return;
      const group = groups[Math.floor(row / size)]!;
      const local = row % size;
      let entry = values.get(nameIndex);
      if (!entry) values.set(nameIndex, (entry = new Map()));
      for (const v of held) {
        const column = group.columns.get(v.name);
        if (column) entry.set(v.name, column[local]!);
      }
    });
  }
  const out: WireRecord[] = [];
  for (const nameIndex of [...values.keys()].sort((a, b) => a - b)) {
    const name = source.manifest.reservoirs.names[nameIndex]!;
    const entry = values.get(nameIndex)!;
    const block: Block = { days: [day], columns: variables.map((v) => (entry.has(v.name) ? [entry.get(v.name)!] : undefined)) };
    emitBlock(out, 'RES_NAME', name, block, variables, system, attach(name));
  }
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
): AsyncGenerator<WireRecord[]> {
  for (const name of names) {
    const partition = source.manifest.stations.partitions[name];
    if (!partition) continue;
    const span = await stationSpan(source, partition, startDay, endDay);
    if (span.days.length === 0) continue;
    const block: Block = { days: span.days, columns: variables.map((v) => span.column(v.name)) };
    const out: WireRecord[] = [];
    emitBlock(out, 'STA_NAME', name, block, variables, system, attach(name));
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
): Promise<WireRecord[]> {
  const out: WireRecord[] = [];
  for (const name of source.manifest.stations.names) {
    const partition = source.manifest.stations.partitions[name];
    if (!partition || partition.rows === 0) continue;
    const groups = await source.reader.allGroups(partition);
    const size = source.manifest.rowGroupSize;
    const row = findDay(groups, size, 0, partition.rows, day);
    if (row < 0) continue;
    const group = groups[Math.floor(row / size)]!;
    const local = row % size;
    const block: Block = { days: [day], columns: variables.map((v) => group.columns.get(v.name)?.subarray(local, local + 1)) };
    emitBlock(out, 'STA_NAME', name, block, variables, system, attach(name));
  }
  return out;
}

/** The rows of a station file within [startDay, endDay], found by binary search over its row groups. */
async function stationSpan(source: TimeseriesSource, partition: StationPartition, startDay: number, endDay: number): Promise<RowSpan> {
  const groups = await source.reader.allGroups(partition);
  const size = source.manifest.rowGroupSize;
  const from = lowerBoundRows(groups, size, partition.rows, startDay);
  const to = lowerBoundRows(groups, size, partition.rows, endDay + 1);
  if (from >= to) return { days: new Int32Array(0), column: () => undefined };
  return source.reader.rows(partition, from, to);
}

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

function lowerBound(days: Int32Array, value: number): number {
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
