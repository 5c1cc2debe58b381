// Wide wire records from partitions: select rows and columns, convert units, round, sort by name then date.
import { formatDay, overlaps, yearOfDay } from '../dates.js';
import type { FlagColumn } from '../flags.js';
import { type Block, blockFrame, type DayFlags, type Frame } from '../format/frame.js';
import type { ResolvedVariable } from '../format/variable.js';
import { compareText, partitionPoint, rowsWithin, runEnd, runsOnDay } from '../order.js';
import { copyOfDay } from '../store/by-date.js';
import type { DataFile, Extent } from '../store/manifest.js';
import type { TimeseriesSource } from '../store/open-snapshot.js';
import type { FileLayout } from '../store/parquet.js';
import type { PartitionReader } from '../store/partitions.js';
import { dayFrame } from './day-frame.js';
import type { Plan } from './plan.js';

/** Rows of one name (or of every name) from some files: days ascending, one Float64Array per requested column. */
interface RowSpan {
  days: Int32Array;
  column(name: string): Float64Array | undefined;
}

/** Names read together when a range asks for many (sorted) names: each row group is then read once, not once a name. */
const MANY_NAMES = 32;

/** Values (days x columns x names) a group of names read together may hold: about 32 MB of doubles (aggregates and normals read in such groups too). */
export const VALUES_PER_GROUP = 4_000_000;

/**
 * Reservoir records over [startDay, endDay] in name then date order, as frames: one per reservoir and year, or, when
 * many names are asked in order (every reservoir for a year), one per reservoir, the names read in groups.
 */
export async function* reservoirRange(source: TimeseriesSource, plan: Plan): AsyncGenerator<Frame> {
  const { names, columns: variables, attach, flags } = plan;
  const read = names.length >= MANY_NAMES && isSorted(names) ? spansInGroups : spansByNameAndYear;
  for await (const [name, spans] of read(source, plan)) {
    const block = alignSpans(spans, variables);
    if (block.days.length === 0) continue;
    yield blockFrame('RES_NAME', variables, name, block, attach(name), 0, block.days.length, flagsOf(spans, block, flags));
  }
}

/**
 * Reads of a name-year asked ahead of the one being answered: a reservoir's whole history is one read per year and
 * dataset, and waiting on each in turn left a fresh process idle 43% of the time (247 reservoirs x 46 years, every
 * variable). A name-year holds at most a year of rows, so eight ahead hold little.
 */
const YEARS_AHEAD = 8;

// each name's rows by dataset, a year at a time, the next years' reads under way meanwhile
async function* spansByNameAndYear(source: TimeseriesSource, plan: Plan): AsyncGenerator<[string, Map<string, RowSpan>]> {
  const { names, columns: variables, startDay, endDay, flags } = plan;
  const [firstYear, lastYear] = [yearOfDay(startDay), yearOfDay(endDay)];
  const years = lastYear - firstYear + 1;
  const total = names.length * years;
  const ahead: Promise<Map<string, RowSpan>>[] = [];
  const ask = (k: number) => {
    const year = firstYear + (k % years);
    const read = readReservoirSpans(source, names[Math.floor(k / years)]!, variables, flags, startDay, endDay, [year, year]);
    read.catch(() => undefined); // a read ahead that fails is reported when its turn comes, not as an unhandled rejection
    ahead.push(read);
  };
  for (let k = 0; k < Math.min(YEARS_AHEAD, total); k++) ask(k);
  for (let k = 0; k < total; k++) {
    if (k + YEARS_AHEAD < total) ask(k + YEARS_AHEAD);
    yield [names[Math.floor(k / years)]!, await ahead.shift()!];
  }
}

/**
 * One reservoir's rows over [startDay, endDay] by dataset, from the files of the years given (by default every year
 * of the range), the datasets read at once; the day flags come with the first dataset's rows (every dataset's file
 * holds the same).
 */
export async function readReservoirSpans(
  source: TimeseriesSource,
  name: string,
  variables: readonly ResolvedVariable[],
  flags: readonly string[],
  startDay: number,
  endDay: number,
  [firstYear, lastYear] = [yearOfDay(startDay), yearOfDay(endDay)],
): Promise<Map<string, RowSpan>> {
  const [startText, endText] = [formatDay(startDay), formatDay(endDay)];
  const held = [...new Set(variables.map((v) => v.dataset!))].flatMap((dataset) => {
    const byYear = source.partitionsByYear.get(dataset);
    const files: DataFile[] = [];
    for (let year = firstYear; year <= lastYear; year++)
      for (const f of byYear?.get(year)?.files ?? []) if (fileHoldsNames(f, name, name, startText, endText)) files.push(f);
    return files.length > 0 ? [{ dataset, files }] : [];
  });
  const spans = await Promise.all(
    held.map(({ dataset, files }, i) => {
      const columns = [...variables.filter((v) => v.dataset === dataset).map((v) => v.name), ...(i === 0 ? flags : [])];
      return readNameRows(source.reader, files, name, startDay, endDay, columns);
    }),
  );
  return new Map(held.map(({ dataset }, i) => [dataset, spans[i]!]));
}

// names (sorted) read in groups of about VALUES_PER_GROUP values, each name's rows over the whole range at once
async function* spansInGroups(source: TimeseriesSource, plan: Plan): AsyncGenerator<[string, Map<string, RowSpan>]> {
  const { names, columns: variables, startDay, endDay, flags } = plan;
  const datasets = [...new Set(variables.map((v) => v.dataset!))];
  const columns = new Map(datasets.map((d, i) => [d, [...variables.filter((v) => v.dataset === d).map((v) => v.name), ...(i === 0 ? flags : [])]]));
  const size = Math.max(1, Math.floor(VALUES_PER_GROUP / ((endDay - startDay + 1) * Math.max(1, variables.length + flags.length))));
  // more than the cache holds (every reservoir's year at 44,000: 16 million rows of a date, a name and a value): its
  // chunks are kept while they fit, not each in place of the one before, so the same answer again finds part of them
  const scan = names.length * (endDay - startDay + 1) * (variables.length + flags.length + 2 * datasets.length) * 8 > source.reader.columnCacheBytes;
  for (let from = 0; from < names.length; from += size) {
    const group = names.slice(from, from + size);
    const read = await readNamesRows(source, group, columns, startDay, endDay, scan);
    for (const name of group) yield [name, read.get(name)!];
  }
}

/** Names whose records are made and handed on together when every name is answered on one date. */
export const NAMES_PER_BATCH = 1000;

/**
 * Every reservoir's records on one date, in name order, as frames. The day's values are gathered first (one value per
 * name and column: a few MB at 44,000 reservoirs); a frame of a batch of names is then made as the reader asks, so the
 * answer's text is never held whole (17 MB of JSON at 44,000, kept alive long enough to reach the old generation).
 */
export async function* reservoirsOnDate(source: TimeseriesSource, plan: Plan): AsyncGenerator<Frame> {
  const names = source.manifest.reservoirs.names;
  const { seen, columns, flagCodes } = await gatherDay(source, plan);
  for (let from = 0; from < names.length; from += NAMES_PER_BATCH) {
    const to = Math.min(from + NAMES_PER_BATCH, names.length);
    let held = 0;
    for (let i = from; i < to; i++) held += seen[i]!;
    if (held === 0) continue;
    const at = new Int32Array(held);
    for (let i = from, r = 0; i < to; i++) if (seen[i]) at[r++] = i;
    yield dayFrame(plan, names, at, columns, flagCodes);
  }
}

/** Every reservoir's values on the plan's day, by name index (NaN where not held), and which names have a row then. */
async function gatherDay(source: TimeseriesSource, plan: Plan) {
  const { columns: variables, startDay: day, flags } = plan;
  const names = source.manifest.reservoirs.names;
  const datasets = [...new Set(variables.map((v) => v.dataset!))];
  const seen = new Uint8Array(names.length); // names with a row on the day in some dataset
  const columns: (Float64Array | undefined)[] = variables.map(() => undefined); // by name index; NaN (null) where not held
  const flagCodes = new Map<FlagColumn, Float64Array | undefined>(flags.map((f) => [f, undefined]));
  const asked = datasets.map((dataset) => {
    const held = variables.flatMap((v, j) => (v.dataset === dataset ? [j] : []));
    const flagged = dataset === datasets[0] ? flags : []; // the first dataset's flags, as on ranges
    return { held, flagged, wanted: [...held.map((j) => variables[j]!.name), ...flagged] };
  });
  // the datasets asked at once: their reads and inflation overlap
  const ones = await Promise.all(asked.map(({ wanted }, i) => datasetOnDay(source, datasets[i]!, day, wanted)));
  for (const [i, { held, flagged }] of asked.entries()) {
    const one = ones[i]!;
    for (let i = 0; i < names.length; i++) seen[i] ||= one.seen[i]!;
    held.forEach((j, k) => (columns[j] = one.values[k]));
    flagged.forEach((f, k) => flagCodes.set(f, one.values[held.length + k]));
  }
  return { seen, columns, flagCodes };
}

/**
 * One dataset's columns on one day for every reservoir, by name index: worked out from every row group holding the
 * day (with rows sorted by name then date, that is the name's whole year), so it is kept (a few MB at 44,000
 * reservoirs) and asked again costs nothing: the map of every reservoir on the latest day is the page most opened.
 */
function datasetOnDay(source: TimeseriesSource, dataset: string, day: number, wanted: readonly string[]) {
  const key = `${source.manifest.snapshot}|${dataset}|${day}|${wanted.join(',')}`;
  return source.reader.derive(key, async () => {
    const names = source.manifest.reservoirs.names;
    const seen = new Uint8Array(names.length);
    const values: (Float64Array | undefined)[] = wanted.map(() => undefined);
    const dayText = formatDay(day);
    const copy = copyOfDay(source.manifest.datasets[dataset]?.byDate, dayText);
    if (copy) {
      await dayFromCopy(source.reader, copy, 'RES_NAME', (n) => source.reservoirIndex.get(n), day, wanted, { seen, values });
      return { value: { seen, values }, bytes: names.length * (1 + 8 * wanted.length) };
    }
    const partition = source.partitionsByYear.get(dataset)?.get(yearOfDay(day));
    // every row group holding the day asked at once: their reads overlap and their pages inflate on every core
    const groups = await Promise.all(
      (partition?.files.filter((f) => overlaps(f, dayText, dayText)) ?? []).map(async (file) => {
        const footer = await source.reader.layout(file);
        return footer.ranges.flatMap((_, g) => (groupHoldsDays(footer, g, day, day) ? [{ file, g }] : []));
      }),
    );
    const reads = await Promise.all(groups.flat().map(({ file, g }) => source.reader.columns(file, g, ['date', 'RES_NAME', ...wanted])));
    for (const read of reads) {
      const rowNames = read[1] as readonly string[];
      const columns = read.slice(2) as (Float64Array | undefined)[];
      // rows run name by name, days ascending within a name: each name's row on the day
      runsOnDay(rowNames, read[0] as Int32Array, day, (start, row) => {
        const nameIndex = row < 0 ? undefined : source.reservoirIndex.get(rowNames[start]!);
        if (nameIndex === undefined) return;
        seen[nameIndex] = 1;
        for (let k = 0; k < columns.length; k++) {
          const column = columns[k];
          if (column) (values[k] ??= new Float64Array(names.length).fill(NaN))[nameIndex] = column[row]!;
        }
      });
    }
    return { value: { seen, values }, bytes: names.length * (1 + 8 * wanted.length) };
  });
}

/** Station records over [startDay, endDay], a frame per station, in name then date order. */
export async function* stationRange(source: TimeseriesSource, plan: Plan): AsyncGenerator<Frame> {
  const { names, columns: variables, startDay, endDay, attach, flags } = plan;
  const [startText, endText] = [formatDay(startDay), formatDay(endDay)];
  for (const name of names) {
    const partition = source.manifest.stations.partitions[name];
    if (!partition || !overlaps(partition, startText, endText)) continue;
    const span = await readNameRows(source.reader, [partition], undefined, startDay, endDay, [...variables.map((v) => v.name), ...flags]);
    if (span.days.length === 0) continue;
    const block: Block = { days: span.days, columns: variables.map((v) => span.column(v.name)) };
    yield blockFrame('STA_NAME', variables, name, block, attach(name), 0, span.days.length, new Map(flags.map((f) => [f, span.column(f)])));
  }
}

/**
 * Several reservoirs' rows in [startDay, endDay] (names sorted), by name then dataset (in the order given): each row
 * group is read once and cut into the names' runs, where reading name by name costs a footer lookup, a scan of the
 * row groups' statistics and two binary searches per name and file (every reservoir for a year: a third of the time).
 */
export async function readNamesRows(
  source: TimeseriesSource,
  names: readonly string[],
  columnsByDataset: ReadonlyMap<string, readonly string[]>,
  startDay: number,
  endDay: number,
  scan = false, // a read larger than the cache (PartitionReader.columns)
): Promise<Map<string, Map<string, RowSpan>>> {
  const wanted = new Set(names);
  const [lo, hi] = [names[0]!, names[names.length - 1]!];
  const [startText, endText] = [formatDay(startDay), formatDay(endDay)];
  const parts = new Map<string, Map<string, Cuts>>(names.map((n) => [n, new Map()]));
  for (const [dataset, columns] of columnsByDataset) {
    const byYear = source.partitionsByYear.get(dataset);
    for (let year = yearOfDay(startDay); byYear && year <= yearOfDay(endDay); year++) {
      for (const file of byYear.get(year)?.files ?? []) {
        if (!fileHoldsNames(file, lo, hi, startText, endText)) continue;
        const footer = await source.reader.layout(file);
        const groups = footer.ranges.flatMap((_, g) => (groupHoldsDays(footer, g, startDay, endDay) && groupHoldsNames(footer, g, lo, hi) ? [g] : []));
        // the file's row groups asked at once (their reads overlap, their pages inflate on every core), cut in order
        const reads = await Promise.all(groups.map((g) => source.reader.columns(file, g, ['date', 'RES_NAME', ...columns], scan)));
        for (const read of reads) {
          const days = read[0] as Int32Array;
          const rowNames = read[1] as readonly string[];
          for (let start = 0, end = 0; start < days.length; start = end) {
            end = runEnd(rowNames, start);
            if (!wanted.has(rowNames[start]!)) continue;
            const [first, last] = rowsWithin(days, startDay, endDay, start, end);
            if (last <= first) continue;
            const held = parts.get(rowNames[start]!)!;
            const part = held.get(dataset) ?? new Cuts();
            held.set(dataset, part);
            part.add(read, first, last);
          }
        }
      }
    }
  }
  const out = new Map<string, Map<string, RowSpan>>();
  for (const [name, held] of parts) {
    const spans = new Map<string, RowSpan>();
    for (const [dataset, columns] of columnsByDataset) {
      const part = held.get(dataset);
      if (part) spans.set(dataset, joinCuts(part, 2, columns));
    }
    out.set(name, spans);
  }
  return out;
}

function isSorted(names: readonly string[]): boolean {
  for (let i = 1; i < names.length; i++) if (compareText(names[i - 1]!, names[i]!) >= 0) return false;
  return true;
}

/**
 * The rows of one name (every row when `name` is undefined: a station's file) within [startDay, endDay], from files
 * in date order: only the row groups whose statistics can hold them are read, and of those only the needed columns.
 */
export async function readNameRows(
  reader: PartitionReader,
  files: readonly DataFile[],
  name: string | undefined,
  startDay: number,
  endDay: number,
  columns: readonly string[],
): Promise<RowSpan> {
  const wanted = name === undefined ? ['date', ...columns] : ['date', 'RES_NAME', ...columns];
  const skip = wanted.length - columns.length;
  // every file's layout and chunks asked at once: a cold year of monthly files is then a few rounds of reads, not 24
  const perFile = await Promise.all(
    files.map(async (file) => {
      const footer = await reader.layout(file);
      const groups: number[] = [];
      for (let g = 0; g < footer.ranges.length; g++) {
        if (groupHoldsDays(footer, g, startDay, endDay) && (name === undefined || groupHoldsNames(footer, g, name, name))) groups.push(g);
      }
      return Promise.all(groups.map((g) => reader.columns(file, g, wanted)));
    }),
  );
  const cuts = new Cuts();
  for (const read of perFile.flat()) {
    const days = read[0] as Int32Array;
    let [from, to] = [0, days.length];
    if (name !== undefined) {
      const rowNames = read[1] as readonly string[];
      from = partitionPoint(rowNames, (n) => compareText(n, name) < 0);
      to = partitionPoint(rowNames, (n) => compareText(n, name) <= 0, from);
    }
    const [first, last] = rowsWithin(days, startDay, endDay, from, to);
    if (last <= first) continue;
    cuts.add(read, first, last);
  }
  return joinCuts(cuts, skip, columns);
}

/** Whether a row group's date statistics allow days in [startDay, endDay] (without statistics, it may hold any). */
function groupHoldsDays(layout: FileLayout, group: number, startDay: number, endDay: number): boolean {
  const days = layout.days[group];
  return !days || (days[0] <= endDay && days[1] >= startDay);
}

/** Whether a reservoir file may hold names in [first, last] on dates overlapping [start, end]. */
export function fileHoldsNames(file: Extent, first: string, last: string, start: string, end: string): boolean {
  return compareText(file.first, last) <= 0 && compareText(first, file.last) <= 0 && overlaps(file, start, end);
}

/** Whether a row group's name statistics allow names in [first, last] (without statistics, it may hold any). */
function groupHoldsNames(footer: FileLayout, group: number, first: string, last: string): boolean {
  const names = footer.names[group];
  return !names || (compareText(names[0], last) <= 0 && compareText(first, names[1]) <= 0);
}

/**
 * Rows cut from row groups read, in order: each cut a read (its days first, its values from a given column on) and its
 * rows [first, last). Kept as numbers, not views of the columns: a year of a name in monthly files is twelve cuts, and
 * 5,000 names' views made the collector a fifth of a warm answer of every reservoir for a year.
 */
class Cuts {
  readonly reads: (readonly unknown[])[] = [];
  readonly first: number[] = [];
  readonly last: number[] = [];

  add(read: readonly unknown[], first: number, last: number): void {
    this.reads.push(read);
    this.first.push(first);
    this.last.push(last);
  }
}

/** The cuts' rows as one span: views of the one read when there is one, else copied end to end (NaN where a read lacks a column). */
function joinCuts(cuts: Cuts, skip: number, columns: readonly string[]): RowSpan {
  const { reads, first, last } = cuts;
  if (reads.length === 1) {
    const [read, from, to] = [reads[0]!, first[0]!, last[0]!];
    const values = columns.map((_, k) => (read[skip + k] as Float64Array | undefined)?.subarray(from, to));
    return { days: (read[0] as Int32Array).subarray(from, to), column: (c) => values[columns.indexOf(c)] };
  }
  let total = 0;
  for (let i = 0; i < reads.length; i++) total += last[i]! - first[i]!;
  const days = new Int32Array(total);
  const joined = columns.map((_, k) => {
    const held = reads.filter((read) => read[skip + k] !== undefined).length;
    if (held === reads.length) return new Float64Array(total);
    return held === 0 ? undefined : new Float64Array(total).fill(NaN); // a column some files lack (written before the variable existed)
  });
  for (let i = 0, at = 0; i < reads.length; i++) {
    const [read, from, to] = [reads[i]!, first[i]!, last[i]!];
    days.set((read[0] as Int32Array).subarray(from, to), at);
    for (let k = 0; k < columns.length; k++) {
      const column = read[skip + k] as Float64Array | undefined;
      if (column) joined[k]!.set(column.subarray(from, to), at);
    }
    at += to - from;
  }
  return { days, column: (c) => joined[columns.indexOf(c)] };
}

/** The day flags of a block from the span that read them (the first dataset's), lined up on the block's days. */
function flagsOf(spans: Map<string, RowSpan>, block: Block, flags: readonly FlagColumn[]): DayFlags {
  const first = spans.values().next().value as RowSpan | undefined;
  if (flags.length === 0 || !first) return new Map();
  const aligned = first.days === block.days;
  return new Map<FlagColumn, ArrayLike<number> | undefined>(
    flags.map((f): [FlagColumn, ArrayLike<number> | undefined] => {
      const codes = first.column(f);
      if (!codes || aligned) return [f, codes];
      const at = new Map<number, number>();
      first.days.forEach((d, i) => at.set(d, codes[i]!));
      return [f, Array.from(block.days, (d) => at.get(d) ?? NaN)];
    }),
  );
}

/** Lines up the spans of several datasets on one list of days (usually they hold the same days). */
export function alignSpans(spans: Map<string, RowSpan>, variables: readonly ResolvedVariable[]): Block {
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

/** Where the day's values go: by name index, NaN where not held; `seen` marks the names with a row on the day. */
export interface DayColumns {
  seen: Uint8Array;
  values: (Float64Array | undefined)[]; // by wanted column
}

/**
 * One day of every name from a date-major copy's file (lib/store/by-date.ts), into `into` (name column `nameColumn`,
 * looked up with `indexOf`): rows by date then name, so the day is one run of rows in the few row groups holding it,
 * where the partitions needed every name's month or every station's file. False when a name has two rows on the day
 * (a station written so: the caller answers it as written).
 */
export async function dayFromCopy(
  reader: PartitionReader,
  copy: DataFile,
  nameColumn: 'RES_NAME' | 'STA_NAME',
  indexOf: (name: string) => number | undefined,
  day: number,
  wanted: readonly string[],
  into: DayColumns,
): Promise<boolean> {
  const layout = await reader.layout(copy);
  const groups = layout.ranges.flatMap((_, g) => (groupHoldsDays(layout, g, day, day) ? [g] : []));
  const reads = await Promise.all(groups.map((g) => reader.columns(copy, g, ['date', nameColumn, ...wanted])));
  const { seen, values } = into;
  let single = true;
  for (const read of reads) {
    const rowNames = read[1] as readonly string[];
    const [first, last] = rowsWithin(read[0] as Int32Array, day, day);
    // each row's name index once, then a loop a column (a call a row and value was most of a fresh process's reading,
    // run before the optimizing compiler)
    const at = new Int32Array(last - first);
    for (let row = first; row < last; row++) {
      const i = indexOf(rowNames[row]!) ?? -1;
      at[row - first] = i;
      if (i < 0) continue;
      if (seen[i]) single = false;
      seen[i] = 1;
    }
    for (let k = 0; k < wanted.length; k++) {
      const column = read[2 + k] as Float64Array | undefined;
      if (!column) continue;
      const to = (values[k] ??= new Float64Array(seen.length).fill(Number.NaN));
      for (let r = 0; r < at.length; r++) if (at[r]! >= 0) to[at[r]!] = column[first + r]!;
    }
  }
  return single;
}
