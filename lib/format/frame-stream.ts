// A query run that yields frames, as a RecordStream: records, JSON and CSV text and tables all made from the columns.
import { nextTurn, PIECE_VALUES } from '../turns.js';
import type { Frame } from './frame.js';
import { frameRecords } from './frame-records.js';
import { frameText } from './frame-text.js';
import { mayExceed, type RecordStream, recordStream, tooManyValues } from './stream.js';

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
  const stream = recordStream(
    columns,
    async function* (kind) {
      for await (const frame of run()) {
        if (frame.rows === 0) continue;
        yield kind === 'records' ? frameRecords(frame, 0, frame.rows, codegen) : frameText(frame, kind, columns);
      }
    },
    readRows,
    bound,
  );
  stream.table = frameTable(stream, run);
  stream.frames = run;
  return stream;
}

/**
 * The `table` output of a stream whose rows `run` yields as frames: built from their columns (table-pieces.ts), with
 * the stream's bound on values checked before anything is read and while frames come.
 */
export function frameTable(stream: Pick<RecordStream, 'columns' | 'maxRecords'>, run: () => AsyncIterable<Frame>): RecordStream['table'] {
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
