// What an answer holds, gathered in one pass over its records in bounded memory: the names, the first and last
// dates, the variables with their units, the row count, and the first and last rows to show.
import type { WireRecord, WireValue } from '../types.js';

/** How many rows a display shows at each end of a long answer. */
export const SHOWN_AT_EACH_END = 5;

/** A summary of an answer, enough to show it compactly. */
export interface AnswerSummary {
  columns: string[]; // every key, in the answer's order
  nameKey: string | undefined; // RES_NAME or STA_NAME, when the records are by name
  names: string[]; // distinct, in order of first appearance
  first: string | undefined; // the earliest start_date (or date)
  last: string | undefined; // the latest end_date (or date)
  variables: string[]; // the "<variable> (<unit>)" keys, once each (a normals answer's "<key> mean", "<key> p10" count once)
  rows: number;
  head: WireRecord[]; // the first rows
  tail: WireRecord[]; // the last rows after head (empty when every row is in head)
}

const variableKey = /^(.+? \([^)]*\))/; // "NetE (mm)", also the start of "NetE (mm) p90" and "NetE (mm) pct_of_normal"

/** The distinct "<variable> (<unit>)" prefixes of the keys, in order. */
export function variablesOf(columns: readonly string[]): string[] {
  return [...new Set(columns.flatMap((c) => variableKey.exec(c)?.[1] ?? []))];
}

/** Gathers a summary batch by batch; `done()` gives it. */
export class SummaryBuilder {
  private columns: string[];
  private readonly names = new Set<string>();
  private first: string | undefined;
  private last: string | undefined;
  private rows = 0;
  private readonly head: WireRecord[] = [];
  private tail: WireRecord[] = [];

  constructor(columns?: readonly string[]) {
    this.columns = columns ? [...columns] : [];
  }

  add(records: Iterable<WireRecord>): void {
    for (const r of records) {
      if (this.rows === 0 && this.columns.length === 0) this.columns = Object.keys(r);
      this.rows++;
      const name = r.RES_NAME ?? r.STA_NAME;
      if (typeof name === 'string') this.names.add(name);
      const start = text(r.start_date ?? r.date);
      const end = text(r.end_date ?? r.date);
      if (start !== undefined && (this.first === undefined || start < this.first)) this.first = start;
      if (end !== undefined && (this.last === undefined || end > this.last)) this.last = end;
      if (this.head.length < SHOWN_AT_EACH_END) this.head.push(r);
      else {
        this.tail.push(r);
        if (this.tail.length > SHOWN_AT_EACH_END * 2) this.tail = this.tail.slice(-SHOWN_AT_EACH_END);
      }
    }
  }

  done(): AnswerSummary {
    const nameKey = this.columns.find((c) => c === 'RES_NAME' || c === 'STA_NAME');
    return {
      columns: this.columns,
      nameKey,
      names: [...this.names],
      first: this.first,
      last: this.last,
      variables: variablesOf(this.columns),
      rows: this.rows,
      head: this.head,
      tail: this.tail.slice(-SHOWN_AT_EACH_END),
    };
  }
}

function text(value: WireValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The summary of records held whole. */
export function summarizeRecords(records: readonly WireRecord[], columns?: readonly string[]): AnswerSummary {
  const builder = new SummaryBuilder(columns);
  builder.add(records);
  return builder.done();
}

/** The summary of a stream of batches, read to the end (each record is looked at once and not kept). */
export async function summarizeBatches(batches: AsyncIterable<WireRecord[]>, columns?: readonly string[]): Promise<AnswerSummary> {
  const builder = new SummaryBuilder(columns);
  for await (const batch of batches) builder.add(batch);
  return builder.done();
}
