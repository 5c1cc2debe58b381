// Query answers as streams: frames (a batch of rows as columns) or records in batches, and every output made from them
// in one place (records, an Arrow table, JSON / CSV text written from the columns), so the library and the server
// format answers alike.
import type { Table } from 'apache-arrow';
import { InvalidParameterError } from '../errors.js';
import { nextTurn, PIECE_VALUES } from '../turns.js';
import type { WireRecord } from '../types.js';
import { joinedPieces } from './bytes.js';
import { recordsToCsv } from './csv.js';
import type { Frame } from './frame.js';
import { frameRecords } from './frame-records.js';
import { frameText } from './frame-text.js';

/** What a stream's run yields per batch: record objects, JSON text (objects separated by commas, no brackets), or CSV rows. */
export type OutputKind = 'records' | 'json' | 'csv';

/**
 * A query answer that can be streamed: its columns (the CSV header), its records in batches, and its outputs. JSON and
 * CSV text are made straight from the columns (the same text as JSON.stringify or recordsToCsv of the records, several
 * times faster). Each output runs the query afresh; use one of them.
 */
export interface RecordStream {
  columns: string[];
  batches: AsyncIterable<WireRecord[]>; // for answers too large to hold: one batch per name and year
  records(): Promise<WireRecord[]>; // every record, in order
  table(maxValues?: number): Promise<Table>; // typed columns (recordsToTable), built in pieces that let the event loop turn; more than maxValues values (records x columns): InvalidParameterError naming output_format
  json(): AsyncIterable<string>; // chunks of one JSON array: '[', then objects separated by commas, then ']'
  csv(): AsyncIterable<string>; // CSV text chunks, the header first: the same text as recordsToCsv of the records
  readRows: number; // about how many stored rows the answer decodes (estimateReadRows; 0 where not estimated)
  maxRecords: number; // the most records the answer can hold, known before anything is read (names x days or periods); Infinity where not bounded
  frames?(): AsyncIterable<Frame>; // the rows as frames, where the answer is read as columns: a page of it without a record for every row
}

/**
 * A RecordStream over a query run: `run(kind)` yields batches of records or of JSON object or CSV row text.
 * `maxRecords` may be given as the function that works it out: only a Parquet or Arrow answer asks for it.
 */
export function recordStream(
  columns: string[],
  run: (kind: OutputKind) => AsyncIterable<unknown[]>,
  readRows = 0,
  bound: number | (() => number) = Infinity,
): RecordStream {
  const batches = () => run('records') as AsyncIterable<WireRecord[]>;
  let known = typeof bound === 'number' ? bound : undefined;
  const maxRecords = () => (known ??= (bound as () => number)());
  return {
    columns,
    batches: { [Symbol.asyncIterator]: () => batches()[Symbol.asyncIterator]() },
    records: () => collect(batches(), Infinity, columns.length),
    table: async (maxValues = Infinity) => {
      if (mayExceed({ maxRecords: maxRecords(), columns }, maxValues)) throw tooManyValues(maxValues); // before any row is read
      const records = await collect(batches(), maxValues, columns.length, true);
      const { recordsToTableInPieces } = await import('./table-pieces.js'); // Arrow is loaded by the first table asked, not by every process
      return recordsToTableInPieces(records, columns);
    },
    json: () => jsonArrayChunks(run('json') as AsyncIterable<string[]>),
    csv: () => csvTextChunks(columns, run('csv') as AsyncIterable<string[]>),
    readRows,
    get maxRecords() {
      return maxRecords();
    },
  };
}

/**
 * A RecordStream over `run`, which yields the answer's frames in order (a batch of records each): records for the
 * library, JSON and CSV written from the columns (frame-text.ts), tables built from them (table-pieces.ts).
 * `maxRecords` may be given as the function that works it out: only a Parquet or Arrow answer asks for it. `codegen`
 * false: records are built without generated code (frame-records.ts); by default, where the process allows it.
 */
export function frameStream(
  columns: string[],
  run: () => AsyncIterable<Frame>,
  readRows = 0,
  bound: number | (() => number) = Infinity,
  codegen?: boolean,
): RecordStream {
  const encode = (kind: OutputKind) => (frame: Frame) => (kind === 'records' ? frameRecords(frame, 0, frame.rows, codegen) : frameText(frame, kind, columns));
  const stream = recordStream(columns, (kind) => mapped(run, encode(kind)), readRows, bound);
  stream.table = frameTable(stream, run);
  stream.frames = run;
  return stream;
}

// each frame of `run` (but empty ones) through `encode`, as an iterator of its own: an async generator in between cost a
// year of every reservoir 5% (a promise and a turn of the generator a frame)
function mapped<T>(run: () => AsyncIterable<Frame>, encode: (frame: Frame) => T): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const frames = run()[Symbol.asyncIterator]();
      const next = (): Promise<IteratorResult<T>> =>
        frames.next().then((r) => (r.done ? { done: true, value: undefined } : r.value.rows === 0 ? next() : { done: false, value: encode(r.value) }));
      const end = async (): Promise<IteratorResult<T>> => {
        await frames.return?.();
        return { done: true, value: undefined };
      };
      return { next, return: end };
    },
  };
}

/**
 * The `table` output of a stream whose rows `run` yields as frames: built from their columns (table-pieces.ts), with
 * the stream's bound on values checked before anything is read and while frames come.
 */
function frameTable(stream: Pick<RecordStream, 'columns' | 'maxRecords'>, run: () => AsyncIterable<Frame>): RecordStream['table'] {
  const { columns } = stream;
  return async (maxValues = Infinity) => {
    if (mayExceed(stream, maxValues)) throw tooManyValues(maxValues); // before any row is read
    const frames: Frame[] = [];
    let [values, sinceTurn] = [0, 0];
    for await (const frame of run()) {
      frames.push(frame);
      values += frame.rows * columns.length;
      if (values > maxValues) throw tooManyValues(maxValues);
      sinceTurn += frame.rows * columns.length;
      if (sinceTurn >= PIECE_VALUES) {
        sinceTurn = 0;
        await nextTurn(); // frames from a warm cache are ready at once: awaiting them alone lets nothing else run
      }
    }
    const { framesToTableInPieces } = await import('./table-pieces.js'); // Arrow is loaded by the first table asked
    return framesToTableInPieces(frames, columns);
  };
}

// every record in order; a table is built whole (JSON and CSV stream), so past the bound it is refused early rather
// than held in memory; `turns`: a turn of the event loop every PIECE_VALUES values (batches from a warm cache are
// ready at once, and awaiting them alone never lets anything else run)
async function collect(batches: AsyncIterable<WireRecord[]>, maxValues: number, width: number, turns = false): Promise<WireRecord[]> {
  const out: WireRecord[] = [];
  let sinceTurn = 0;
  for await (const batch of batches) {
    for (const r of batch) out.push(r);
    if (out.length * width > maxValues) throw tooManyValues(maxValues);
    sinceTurn += batch.length * width;
    if (turns && sinceTurn >= PIECE_VALUES) {
      sinceTurn = 0;
      await nextTurn();
    }
  }
  return out;
}

/** Whether the stream's bound on records (when it has one) allows more than `maxValues` values. */
export function mayExceed(stream: Pick<RecordStream, 'maxRecords' | 'columns'>, maxValues: number): boolean {
  return Number.isFinite(stream.maxRecords) && stream.maxRecords * stream.columns.length > maxValues;
}

/** The refusal of a Parquet or Arrow answer holding, or able to hold, more than `maxValues` values. */
export function tooManyValues(maxValues: number): InvalidParameterError {
  return new InvalidParameterError(
    'output_format',
    `a Parquet or Arrow answer is built in memory and may hold at most ${maxValues} values (records x columns); this one can hold more (names x days, or x periods, x columns): ask for fewer names, variables or days, or use json or csv, which stream`,
    'too-many',
  );
}

/**
 * What an output holds while it is made (aroundOutputs): `leave` gives it back. A hold that may be lent out while the
 * reader, not the producer, has the next move has `idle` (a chunk was handed over) and `resume` (the reader asks for
 * more: production goes on at once when it returns nothing, else once the promise settles, the hold back).
 */
export interface OutputHold {
  leave(): void;
  idle?(): void;
  resume?(): Promise<void> | undefined;
}

/**
 * The stream with every output wrapped: `enter()` runs before the first batch, chunk or record is made and gives what
 * ends the use (a function, or an OutputHold), called once the output is done, fails or its reader stops early. What a
 * reader holds while it reads (a snapshot's lease, a turn among heavy answers) is taken and given back here.
 */
export function aroundOutputs(stream: RecordStream, enter: () => Promise<OutputHold | (() => void)> | OutputHold | (() => void)): RecordStream {
  const take = async (): Promise<OutputHold> => {
    const held = await enter();
    return typeof held === 'function' ? { leave: held } : held;
  };
  const each = <T>(make: () => AsyncIterable<T>): AsyncIterable<T> => ({
    [Symbol.asyncIterator]: () =>
      (async function* () {
        const hold = await take();
        try {
          if (!hold.idle) return yield* make();
          for await (const chunk of make()) {
            hold.idle();
            yield chunk; // the reader's move until it asks for the next
            const back = hold.resume?.();
            if (back) await back;
          }
        } finally {
          hold.leave();
        }
      })(),
  });
  const whole = async <T>(make: () => Promise<T>): Promise<T> => {
    const hold = await take();
    try {
      return await make();
    } finally {
      hold.leave();
    }
  };
  return {
    columns: stream.columns,
    readRows: stream.readRows,
    get maxRecords() {
      return stream.maxRecords; // asked for only when needed (recordStream)
    },
    batches: each(() => stream.batches),
    json: () => each(() => stream.json()),
    csv: () => each(() => stream.csv()),
    records: () => whole(() => stream.records()),
    table: (maxValues) => whole(() => stream.table(maxValues)),
    ...(stream.frames ? { frames: () => each(() => stream.frames!()) } : {}),
  };
}

// JSON array text as a stream of chunks, so a large answer is never one string in memory.

/** JSON array text in chunks from batches of JSON object text (each element: objects separated by commas). */
export async function* jsonArrayChunks(batches: AsyncIterable<readonly string[]>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const batch of batches) {
    // the comma between pieces as a chunk of its own: joined to a piece's text it made a string of two parts, which
    // the socket's write copied once more to flatten (every reservoir for a year: a batch a name)
    for (const piece of joinedPieces(batch, ',')) {
      if (!first) yield ',';
      yield piece;
      first = false;
    }
  }
  yield ']';
}

/** CSV text in chunks from batches of CSV rows already written (RecordStream.csv): the header, then the rows. */
export async function* csvTextChunks(columns: readonly string[], batches: AsyncIterable<readonly string[]>): AsyncGenerator<string> {
  yield recordsToCsv([], columns, true);
  for await (const batch of batches) yield* joinedPieces(batch, ''); // in pieces, as for JSON
}
