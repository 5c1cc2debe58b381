// modified_since (the daily answers): only the rows whose values differ from the same query's answer at an earlier
// snapshot. Both answers come sorted by name, then day, so they are read side by side, frame by frame, and compared row
// by row keyed by name and day: a frame of each is held at a time, never a whole answer. A row removed since has
// nothing to list and is not listed.
import { InvalidParameterError } from '../errors.js';
import { type Frame, type FrameColumn, wireValueAt } from '../format/frame.js';
import { frameStream, type RecordStream } from '../format/stream.js';
import { compareText } from '../order.js';
import type { SnapshotInfo } from '../store/snapshots.js';
import type { WireRecord, WireValue } from '../types.js';

/** What is asked of a store here (a reader of lib/open/store.ts: not imported, which would go up the stack). */
interface Reader {
  listSnapshots(): Promise<SnapshotInfo[]>;
  asOf(asOf: string): Promise<Reader & { close(): Promise<void> }>;
}

/**
 * The answer `open` gives from `reader`, less the rows the store as it was at `since` (a retained snapshot's id, or a
 * time) answers with the same values: a stream of frames, encoded like every other (stream.ts). `since` and the
 * older answer's plan are checked here, before anything is read; each output then reads the older answer afresh
 * beside the newer one.
 */
export async function modifiedSinceStream<R extends Reader>(
  reader: R,
  since: string,
  open: (reader: R | Awaited<ReturnType<R['asOf']>>) => RecordStream,
): Promise<RecordStream> {
  const now = open(reader);
  const view = await viewSince(reader, since);
  let thenRows: number;
  try {
    thenRows = open(view).readRows;
  } finally {
    await view.close();
  }
  async function* run(): AsyncGenerator<Frame> {
    const view = await viewSince(reader, since); // a use of the view for this output, its lease held until the output ends
    try {
      yield* changedFrames(now, open(view));
    } finally {
      await view.close();
    }
  }
  return frameStream(now.columns, run, now.readRows + thenRows, () => now.maxRecords);
}

/** The store as it was at the snapshot `since` names: its id (a sequence number still retained) or a time. */
async function viewSince<R extends Reader>(reader: R, since: string): Promise<Awaited<ReturnType<R['asOf']>>> {
  const view = async (time: string): Promise<Awaited<ReturnType<R['asOf']>>> => (await reader.asOf(time)) as Awaited<ReturnType<R['asOf']>>; // what this reader's asOf gives
  if (/^\d+$/.test(since)) {
    const info = (await reader.listSnapshots()).find((s) => s.id === Number(since));
    if (!info) throw new InvalidParameterError('modified_since', `snapshot ${since} is not retained; ask from a time`, 'not-allowed', since);
    return view(info.time);
  }
  try {
    return await view(since);
  } catch (error) {
    // the time is this parameter's, not as_of's
    if (error instanceof InvalidParameterError && error.parameter === 'as_of')
      throw new InvalidParameterError('modified_since', error.message.replace(/^as_of/, 'modified_since'), error.reason, since);
    throw error;
  }
}

/**
 * The rows of `now` that `then` does not hold with the same record (the same keys in the same order, the same values
 * as JSON writes them), as frames: each of `now`'s less its unchanged rows. Both answers must be sorted by name, then
 * start_date (rows out of order are refused); a row of `then` is read only once `now` has come to its key.
 */
export async function* changedFrames(now: RecordStream, then: RecordStream): AsyncGenerator<Frame> {
  const nameKey = now.columns.includes('RES_NAME') ? 'RES_NAME' : 'STA_NAME';
  const older = new Rows(framesOf(then), nameKey);
  const newer = new Rows(framesOf(now), nameKey);
  try {
    await older.next();
    await newer.next();
    while (newer.shape) {
      const shape = newer.shape;
      const changed: number[] = [];
      for (; newer.shape === shape; await newer.next()) {
        while (older.shape && compareKeys(older, newer) < 0) await older.next();
        const held = older.shape !== undefined && compareKeys(older, newer) === 0;
        if (!held || !sameRecord(shape, newer.row, older.shape!, older.row)) changed.push(newer.row);
      }
      if (changed.length === shape.frame.rows) yield shape.frame;
      else if (changed.length > 0) yield pickRows(shape.frame, changed);
    }
  } finally {
    await Promise.all([older.close(), newer.close()]);
  }
}

// A frame's record columns, worked out once: the record's keys as JSON.stringify orders them (an index key first), each
// with its last column (as frameRecords: a key given twice keeps its first place and its last values).
class Shape {
  readonly keys: string;
  readonly columns: FrameColumn[];
  readonly nameColumn: FrameColumn | undefined;
  readonly dayColumn: FrameColumn | undefined;

  constructor(
    readonly frame: Frame,
    nameKey: string,
  ) {
    const last = new Map<string, FrameColumn>();
    for (const column of frame.columns) last.set(column.key, column);
    const shaped: WireRecord = {};
    for (const key of last.keys()) Object.defineProperty(shaped, key, { value: null, enumerable: true, configurable: true });
    const keys = Object.keys(shaped);
    this.keys = JSON.stringify(keys);
    this.columns = keys.map((key) => last.get(key)!);
    this.nameColumn = last.get(nameKey);
    this.dayColumn = last.get('start_date');
  }
}

// The rows of a stream of frames, one at a time: the current frame's shape, row and key (no shape once read to its
// end), refusing rows out of order, which would be compared with the wrong rows
class Rows {
  shape: Shape | undefined;
  row = -1;
  name = '';
  day = '';

  constructor(
    private readonly frames: AsyncIterator<Frame>,
    private readonly nameKey: string,
  ) {}

  async next(): Promise<void> {
    const [name, day] = [this.name, this.day];
    this.row++;
    while (!this.shape || this.row >= this.shape.frame.rows) {
      const step = await this.frames.next();
      if (step.done) {
        this.shape = undefined;
        return;
      }
      this.shape = new Shape(step.value, this.nameKey);
      this.row = 0;
    }
    const { nameColumn, dayColumn } = this.shape;
    this.name = nameColumn ? String(wireValueAt(nameColumn, this.row)) : '';
    this.day = dayColumn ? String(wireValueAt(dayColumn, this.row)) : '';
    if ((compareText(name, this.name) || compareText(day, this.day)) > 0)
      throw new Error(`modified_since: ${this.name} ${this.day} came after ${name} ${day}: an answer must be sorted by name, then day`);
  }

  async close(): Promise<void> {
    await this.frames.return?.();
  }
}

function compareKeys(a: Rows, b: Rows): number {
  return compareText(a.name, b.name) || compareText(a.day, b.day);
}

// whether row i of `a` and row j of `b` are the same record as JSON writes it (NaN and Infinity are null)
function sameRecord(a: Shape, i: number, b: Shape, j: number): boolean {
  if (a.keys !== b.keys) return false;
  for (let k = 0; k < a.columns.length; k++) {
    if (asJson(wireValueAt(a.columns[k]!, i)) !== asJson(wireValueAt(b.columns[k]!, j))) return false;
  }
  return true;
}

function asJson(value: WireValue): WireValue {
  return typeof value === 'number' && !Number.isFinite(value) ? null : value;
}

// the frame's rows at `rows` (ascending), each column held as it was
function pickRows(frame: Frame, rows: readonly number[]): Frame {
  const columns = frame.columns.map((column): FrameColumn => {
    switch (column.kind) {
      case 'day':
        return { ...column, days: Int32Array.from(rows, (i) => column.days[i]!) };
      case 'number':
        return { ...column, values: Float64Array.from(rows, (i) => column.values[i]!) };
      case 'value':
        return { ...column, values: rows.map((i) => column.values[i]!) };
      case 'label':
        return { ...column, at: Int32Array.from(rows, (i) => column.at[i]!) };
      case 'same':
        return column;
    }
  });
  return { rows: rows.length, columns };
}

// a stream's rows as frames: its own where it is read as columns, else a frame for each run of records with the same keys
async function* framesOf(stream: RecordStream): AsyncGenerator<Frame> {
  if (stream.frames) return yield* stream.frames();
  for await (const batch of stream.batches) {
    for (let from = 0; from < batch.length; ) {
      const keys = Object.keys(batch[from]!);
      let to = from + 1;
      while (to < batch.length && sameKeys(Object.keys(batch[to]!), keys)) to++;
      const records = batch.slice(from, to);
      yield { rows: records.length, columns: keys.map((key) => ({ key, kind: 'value', values: records.map((r) => r[key]!) })) };
      from = to;
    }
  }
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}
