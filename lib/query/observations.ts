// A page of one dataset's (name, day) rows, in name then day order, read as columns: the rows before the page are
// counted from row counts (the manifest's files, their row groups' statistics), never read, and only the row groups
// that statistics cannot settle (a group holding names on both sides of the boundary, or days on both sides of the
// range) have their dates and names decoded to count them.
import { formatDay, yearOfDay } from '../dates.js';
import type { ResolvedVariable } from '../format/variable.js';
import { compareText, firstAfterAwaited, partitionPoint, rowsWithin, runEnd } from '../order.js';
import type { ReservoirFile } from '../store/manifest.js';
import type { TimeseriesSource } from '../store/open-snapshot.js';
import { fileHoldsNames, readNameRows } from './timeseries.js';

/** Rows as columns: each row's name and day, and one column of stored (metric) values per variable, NaN where none. */
export interface ObservationFrame {
  names: string[];
  days: Int32Array; // epoch days
  columns: Float64Array[]; // parallel to `variables`
  variables: readonly ResolvedVariable[]; // each column's variable, unit and conversion into the system asked
}

/** One page of an answer and how many rows the whole answer holds. */
export interface ObservationPage {
  frame: ObservationFrame;
  matched: number;
}

/** What a page asks: the names (any order; read sorted), the days, the variables (all of one dataset), the rows. */
export interface ObservationPageQuery {
  names: readonly string[];
  startDay: number;
  endDay: number;
  variables: readonly ResolvedVariable[];
  offset: number;
  limit: number;
}

/** A row group of a file in the range, with what its statistics say. */
interface Group {
  file: ReservoirFile;
  g: number;
  rows: number;
  days: readonly [number, number] | undefined;
  names: readonly [string, string] | undefined;
}

/** The names asked, sorted, and which of the store's names they are. */
class Selection {
  readonly sorted: string[];
  private readonly set: Set<string>;
  constructor(
    names: readonly string[],
    private readonly held: readonly string[], // the store's names, sorted
  ) {
    this.set = new Set(names);
    this.sorted = [...this.set].sort(compareText);
  }
  has(name: string): boolean {
    return this.set.has(name);
  }
  /** How many asked names lie in [first, last]. */
  within(first: string, last: string): number {
    return countBetween(this.sorted, first, last);
  }
  /** Whether every name the store holds in [first, last] is asked (a row group of only those names counts whole). */
  allOf(first: string, last: string): boolean {
    return this.within(first, last) === countBetween(this.held, first, last);
  }
}

function countBetween(sorted: readonly string[], first: string, last: string): number {
  const lo = partitionPoint(sorted, (n) => compareText(n, first) < 0);
  return partitionPoint(sorted, (n) => compareText(n, last) <= 0, lo) - lo;
}

/** Rows `offset` to `offset + limit - 1` of a reservoir dataset's answer, and the answer's row count. */
export async function reservoirObservationPage(source: TimeseriesSource, dataset: string, query: ObservationPageQuery): Promise<ObservationPage> {
  const { startDay, endDay, variables, offset, limit } = query;
  const selection = new Selection(query.names, source.manifest.reservoirs.names);
  const empty: ObservationPage = { frame: frameOf([], [], [], variables), matched: 0 };
  if (selection.sorted.length === 0 || startDay > endDay) return empty;
  const files = filesOf(source, dataset, selection, startDay, endDay);
  const groups = await groupsOf(source, files);
  const counter = new Counter(source, selection, startDay, endDay);
  const matched = await counter.before(groups, undefined);
  if (offset >= matched) return { ...empty, matched };
  // the name the page starts in: the last whose rows before it are at most `offset` (rows before it are counted, not read)
  const names = selection.sorted;
  const [first, end] = offset === 0 ? [0, 1] : await counter.bracket(groups, offset);
  const lo = (await firstAfterAwaited(first + 1, end, async (i) => (await counter.before(groups, names[i]!)) <= offset)) - 1;
  let skip = offset - (lo === 0 ? 0 : await counter.before(groups, names[lo]!));
  const out = { names: [] as string[], days: [] as number[], columns: variables.map(() => [] as number[]) };
  const columns = variables.map((v) => v.name);
  for (let k = lo; k < names.length && out.days.length < limit; k++) {
    const name = names[k]!;
    for (const file of files) {
      if (out.days.length >= limit) break;
      if (!fileHoldsNames(file, name, name, formatDay(startDay), formatDay(endDay))) continue;
      const held = skip === 0 ? Number.POSITIVE_INFINITY : await counter.ofName(groups, file, name); // counted only to be skipped
      if (skip >= held) {
        skip -= held;
        continue;
      }
      const span = await readNameRows(source.reader, [file], name, startDay, endDay, columns);
      const to = Math.min(span.days.length, skip + limit - out.days.length);
      const values = columns.map((c) => span.column(c));
      for (let i = skip; i < to; i++) {
        out.names.push(name);
        out.days.push(span.days[i]!);
        for (let j = 0; j < values.length; j++) out.columns[j]!.push(values[j]?.[i] ?? Number.NaN);
      }
      skip = 0;
    }
  }
  return { frame: frameOf(out.names, out.days, out.columns, variables), matched };
}

function frameOf(names: string[], days: number[], columns: number[][], variables: readonly ResolvedVariable[]): ObservationFrame {
  return { names, days: Int32Array.from(days), columns: columns.map((c) => Float64Array.from(c)), variables };
}

// the dataset's files that may hold the names on the days, in the order a name's rows run: by year, then start date
function filesOf(source: TimeseriesSource, dataset: string, selection: Selection, startDay: number, endDay: number): ReservoirFile[] {
  const byYear = source.partitionsByYear.get(dataset);
  const [first, last] = [selection.sorted[0]!, selection.sorted[selection.sorted.length - 1]!];
  const [startText, endText] = [formatDay(startDay), formatDay(endDay)];
  const files: ReservoirFile[] = [];
  for (let year = yearOfDay(startDay); byYear && year <= yearOfDay(endDay); year++)
    for (const file of byYear.get(year)?.files ?? []) if (fileHoldsNames(file, first, last, startText, endText)) files.push(file);
  return files;
}

// every row group of the files, with its statistics (the files' indexes or footers, read at once)
async function groupsOf(source: TimeseriesSource, files: readonly ReservoirFile[]): Promise<Group[]> {
  const layouts = await Promise.all(files.map((f) => source.reader.layout(f)));
  return layouts.flatMap((layout, i) =>
    layout.ranges.map((_, g) => ({
      file: files[i]!,
      g,
      rows: layout.groupStarts[g + 1]! - layout.groupStarts[g]!,
      days: layout.days[g],
      names: layout.names[g],
    })),
  );
}

/** Counts rows of the asked names on the asked days, from statistics where they settle it, else from decoded dates and names. */
class Counter {
  constructor(
    private readonly source: TimeseriesSource,
    private readonly selection: Selection,
    private readonly startDay: number,
    private readonly endDay: number,
  ) {}

  /** Rows of asked names before `name` (every asked row when undefined). */
  async before(groups: readonly Group[], name: string | undefined): Promise<number> {
    let total = 0;
    for (const group of groups) {
      const settled = this.settled(group, name);
      total += settled ?? (await this.decoded(group, (n) => name === undefined || compareText(n, name) < 0));
    }
    return total;
  }

  /** Rows of one name in one file. */
  async ofName(groups: readonly Group[], file: ReservoirFile, name: string): Promise<number> {
    let total = 0;
    for (const group of groups) {
      if (group.file !== file || (group.names && (compareText(name, group.names[0]) < 0 || compareText(group.names[1], name) < 0))) continue;
      const whole = group.names?.[0] === name && group.names[1] === name && this.daysWithin(group);
      total += whole ? group.rows : await this.decoded(group, (n) => n === name);
    }
    return total;
  }

  /**
   * Indexes [lo, hi) of the asked names between which the page's first name lies, from statistics alone: rows before
   * names[lo] are surely at most `offset`, rows before names[hi] surely more (hi is the count of names when none is).
   */
  async bracket(groups: readonly Group[], offset: number): Promise<[number, number]> {
    const names = this.selection.sorted;
    const bounds = (name: string) => {
      let [least, most] = [0, 0];
      for (const group of groups) {
        const settled = this.settled(group, name);
        if (settled !== undefined) [least, most] = [least + settled, most + settled];
        else most += group.rows;
      }
      return [least, most] as const;
    };
    const lo = partitionPoint(names, (n) => bounds(n)[1] <= offset) - 1; // the most an asked name's rows before can be grows with the name
    const hi = partitionPoint(names, (n) => bounds(n)[0] <= offset);
    return [Math.max(0, lo), Math.max(hi, lo + 1, 1)];
  }

  // a group's rows of asked names before `name` (all asked when undefined) on the asked days, when statistics say it
  private settled(group: Group, name: string | undefined): number | undefined {
    const { days, names } = group;
    if (days && (days[1] < this.startDay || days[0] > this.endDay)) return 0;
    if (!names) return undefined;
    if (name !== undefined && compareText(names[0], name) >= 0) return 0;
    if (this.selection.within(names[0], names[1]) === 0) return 0;
    const beforeName = name === undefined || compareText(names[1], name) < 0;
    return beforeName && this.daysWithin(group) && this.selection.allOf(names[0], names[1]) ? group.rows : undefined;
  }

  private daysWithin(group: Group): boolean {
    return group.days !== undefined && group.days[0] >= this.startDay && group.days[1] <= this.endDay;
  }

  // a group's rows of asked names passing `keep`, on the asked days, from its decoded dates and names
  private async decoded(group: Group, keep: (name: string) => boolean): Promise<number> {
    const [days, names] = (await this.source.reader.columns(group.file, group.g, ['date', 'RES_NAME'])) as [Int32Array, readonly string[]];
    let total = 0;
    for (let start = 0, end = 0; start < days.length; start = end) {
      end = runEnd(names, start);
      const name = names[start]!;
      if (!this.selection.has(name) || !keep(name)) continue;
      const [first, last] = rowsWithin(days, this.startDay, this.endDay, start, end);
      total += Math.max(0, last - first);
    }
    return total;
  }
}
