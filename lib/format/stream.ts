// Query answers as streams: records in batches, and every output made from them in one place (records, an Arrow
// table, JSON / CSV text made straight from the columns), so the library and the server format answers alike.
import type { Table } from 'apache-arrow';
import { InvalidParameterError } from '../errors.js';
import type { WireRecord } from '../types.js';
import { recordsToTable } from './answer-table.js';
import { csvTextChunks } from './csv.js';
import type { OutputKind } from './emit.js';
import { jsonArrayChunks } from './json.js';

/**
 * A query answer that can be streamed: its columns (the CSV header), its records in batches, and its outputs. JSON and
 * CSV text are made straight from the columns (the same text as JSON.stringify or recordsToCsv of the records, several
 * times faster). Each output runs the query afresh; use one of them.
 */
export interface RecordStream {
  columns: string[];
  batches: AsyncIterable<WireRecord[]>; // for answers too large to hold: one batch per name and year
  records(): Promise<WireRecord[]>; // every record, in order
  table(maxValues?: number): Promise<Table>; // typed columns (recordsToTable); more than maxValues values (records x columns): InvalidParameterError naming output_format
  json(): AsyncIterable<string>; // chunks of one JSON array: '[', then objects separated by commas, then ']'
  csv(): AsyncIterable<string>; // CSV text chunks, the header first: the same text as recordsToCsv of the records
  readRows: number; // about how many stored rows the answer decodes (estimateReadRows; 0 where not estimated)
}

/** A RecordStream over a query run: `run(kind)` yields batches of records or of JSON object or CSV row text. */
export function recordStream(columns: string[], run: (kind: OutputKind) => AsyncIterable<unknown[]>, readRows = 0): RecordStream {
  const batches = () => run('records') as AsyncIterable<WireRecord[]>;
  return {
    columns,
    batches: { [Symbol.asyncIterator]: () => batches()[Symbol.asyncIterator]() },
    records: () => collect(batches(), Infinity, columns.length),
    table: async (maxValues = Infinity) => recordsToTable(await collect(batches(), maxValues, columns.length), columns),
    json: () => jsonArrayChunks(run('json') as AsyncIterable<string[]>),
    csv: () => csvTextChunks(columns, run('csv') as AsyncIterable<string[]>),
    readRows,
  };
}

// every record in order; a table is built whole (JSON and CSV stream), so past the bound it is refused early rather
// than held in memory
async function collect(batches: AsyncIterable<WireRecord[]>, maxValues: number, width: number): Promise<WireRecord[]> {
  const out: WireRecord[] = [];
  for await (const batch of batches) {
    for (const r of batch) out.push(r);
    if (out.length * width > maxValues) {
      throw new InvalidParameterError(
        'output_format',
        `a Parquet or Arrow answer is built in memory and may hold at most ${maxValues} values (records x columns); this one holds more: ask for fewer names, variables or days, or use json or csv, which stream`,
        'too-many',
      );
    }
  }
  return out;
}

/**
 * The stream with every output wrapped: `enter()` runs before the first batch, chunk or record is made and gives what
 * ends the use, called once the output is done, fails or its reader stops early. What a reader holds while it reads
 * (a snapshot's lease, a turn among heavy answers) is taken and given back here.
 */
export function aroundOutputs(stream: RecordStream, enter: () => Promise<() => void> | (() => void)): RecordStream {
  const each = <T>(make: () => AsyncIterable<T>): AsyncIterable<T> => ({
    [Symbol.asyncIterator]: () =>
      (async function* () {
        const leave = await enter();
        try {
          yield* make();
        } finally {
          leave();
        }
      })(),
  });
  const whole = async <T>(make: () => Promise<T>): Promise<T> => {
    const leave = await enter();
    try {
      return await make();
    } finally {
      leave();
    }
  };
  return {
    ...stream,
    batches: each(() => stream.batches),
    json: () => each(() => stream.json()),
    csv: () => each(() => stream.csv()),
    records: () => whole(() => stream.records()),
    table: (maxValues) => whole(() => stream.table(maxValues)),
  };
}
