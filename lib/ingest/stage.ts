// Rows of an ingest staged by the partition they land in, and their merge into the rows a partition already holds.
import { type DatasetName, reservoirDatasets, stationVariableNames } from '../catalogue.js';
import { yearOfDay } from '../dates.js';
import { reservoirDayAttributes, stationDayAttributes } from '../flags.js';
import { compareText } from '../order.js';
import type { ReservoirRows, StationRows } from '../writer/write.js';

/** Where staged rows land: one dataset-year of reservoirs, or one station's whole history. */
type Target = { kind: 'reservoirs'; dataset: DatasetName; year: number } | { kind: 'stations'; name: string };

// the per-day flags come last, staged as their codes like any value (flags.ts)
const datasetVariables = new Map<string, readonly string[]>(
  Object.entries(reservoirDatasets).map(([d, spec]) => [d, [...Object.keys(spec.variables), ...reservoirDayAttributes]]),
);
const stationColumns = [...stationVariableNames, ...stationDayAttributes];

/**
 * Staged values of one partition: name -> day -> values by variable index (undefined: not given; NaN: a gap),
 * then one slot saying whether the values may create the row when the partition does not hold it yet.
 */
export class StagedPartition {
  readonly cells = new Map<string, Map<number, number[]>>();
  readonly filled: boolean[]; // variables given a number somewhere: only these add a column
  count = 0;

  constructor(
    readonly target: Target,
    readonly variables: readonly string[],
  ) {
    this.filled = variables.map(() => false);
  }

  /** Sets one value of (name, day); `creates` lets it make a new row (else it only replaces a stored one). */
  set(name: string, day: number, variable: number, value: number, creates = true): void {
    let days = this.cells.get(name);
    if (!days) this.cells.set(name, (days = new Map()));
    let cell = days.get(day);
    if (!cell) {
      days.set(day, (cell = new Array<number>(this.variables.length + 1)));
      this.count++;
    }
    cell[variable] = value;
    if (creates) cell[this.variables.length] = 1;
    if (value === value) this.filled[variable] = true;
  }
}

/** Staged rows of a file or of a whole ingest, by partition. */
export class Staging {
  readonly partitions = new Map<string, StagedPartition>();
  records = 0; // input records accepted into this staging

  /** The staged partition of a reservoir dataset and the year of `day`. */
  reservoir(dataset: DatasetName, day: number): StagedPartition {
    const year = yearOfDay(day);
    const key = `r\u0000${dataset}\u0000${year}`;
    let p = this.partitions.get(key);
    if (!p) this.partitions.set(key, (p = new StagedPartition({ kind: 'reservoirs', dataset, year }, datasetVariables.get(dataset)!)));
    return p;
  }

  /** The staged partition of a station. */
  station(name: string): StagedPartition {
    const key = `s\u0000${name}`;
    let p = this.partitions.get(key);
    if (!p) this.partitions.set(key, (p = new StagedPartition({ kind: 'stations', name }, stationColumns)));
    return p;
  }

  /** Moves every staged value of `later` into this staging; its values win where both give one. */
  absorb(later: Staging): void {
    this.records += later.records;
    for (const [key, incoming] of later.partitions) {
      const mine = this.partitions.get(key);
      if (!mine) {
        this.partitions.set(key, incoming);
        continue;
      }
      for (const [name, days] of incoming.cells) {
        for (const [day, cell] of days) {
          const creates = cell[incoming.variables.length] === 1;
          cell.forEach((value, v) => v < incoming.variables.length && mine.set(name, day, v, value, creates));
        }
      }
    }
  }
}

/** Rows after a merge, and how many (name, date) rows were new or replaced. */
interface Merged<R> {
  rows: R;
  added: number;
  replaced: number;
}

/** Merges staged rows into a reservoir partition's rows: staged values replace what they give for a (name, date). */
export function mergeReservoirRows(old: ReservoirRows | undefined, staged: StagedPartition): Merged<ReservoirRows> {
  const merged = mergeRows(old ? { ...old, name: (i) => old.names[i]! } : undefined, staged);
  return { rows: { names: merged.names, days: merged.days, values: merged.values }, added: merged.added, replaced: merged.replaced };
}

/** Merges staged rows into a station's rows. */
export function mergeStationRows(old: StationRows | undefined, staged: StagedPartition, name: string): Merged<StationRows> {
  const merged = mergeRows(old ? { ...old, name: () => name } : undefined, staged);
  return { rows: { days: merged.days, values: merged.values }, added: merged.added, replaced: merged.replaced };
}

interface OldRows {
  name(row: number): string;
  days: Int32Array;
  values: Record<string, Float64Array>;
}

function mergeRows(old: OldRows | undefined, staged: StagedPartition) {
  const oldRows = old?.days.length ?? 0;
  const variables = staged.variables.filter((v, i) => staged.filled[i] || (old !== undefined && v in old.values));
  const oldColumns = variables.map((v) => old?.values[v]);
  const stagedIndex = variables.map((v) => staged.variables.indexOf(v));
  const capacity = oldRows + staged.count;
  const names: string[] = [];
  const days = new Int32Array(capacity);
  const columns = variables.map(() => new Float64Array(capacity));
  let n = 0;
  let added = 0;
  let replaced = 0;
  const pushOld = (row: number) => {
    names.push(old!.name(row));
    days[n] = old!.days[row]!;
    for (let j = 0; j < variables.length; j++) columns[j]![n] = oldColumns[j]?.[row] ?? NaN;
    n++;
  };
  const pushNew = (name: string, day: number, cell: number[], row: number) => {
    names.push(name);
    days[n] = day;
    for (let j = 0; j < variables.length; j++) {
      const value = cell[stagedIndex[j]!];
      columns[j]![n] = value !== undefined ? value : row >= 0 ? (oldColumns[j]?.[row] ?? NaN) : NaN;
    }
    n++;
  };
  const stagedNames = [...staged.cells.keys()].sort(compareText);
  let o = 0;
  let s = 0;
  while (o < oldRows || s < stagedNames.length) {
    const oldName = o < oldRows ? old!.name(o) : undefined;
    const name = stagedNames[s];
    const order = oldName === undefined ? 1 : name === undefined ? -1 : compareText(oldName, name);
    if (order < 0) {
      pushOld(o++);
      continue;
    }
    const cells = staged.cells.get(name!)!;
    const stagedDays = [...cells.keys()].sort((a, b) => a - b);
    let end = o;
    if (order === 0) while (end < oldRows && old!.name(end) === name) end++;
    let d = 0;
    while (o < end || d < stagedDays.length) {
      if (d >= stagedDays.length || (o < end && old!.days[o]! < stagedDays[d]!)) {
        pushOld(o++);
        continue;
      }
      const day = stagedDays[d++]!;
      const cell = cells.get(day)!;
      if (o < end && old!.days[o] === day) {
        pushNew(name!, day, cell, o++);
        replaced++;
      } else if (cell[staged.variables.length] === 1) {
        pushNew(name!, day, cell, -1);
        added++;
      }
    }
    s++;
  }
  const values = Object.fromEntries(variables.map((v, j) => [v, columns[j]!.slice(0, n)]));
  return { names, days: days.slice(0, n), values, added, replaced };
}
