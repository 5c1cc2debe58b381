// An answer's records as an Arrow table built a piece at a time, giving the event loop a turn between pieces: a table
// of every demo reservoir over three years (73,000 records x 27 columns) took 2 s of one uninterrupted turn, during
// which a server answered nothing else.
import { type DataType, DateDay, Field, Float64, makeVector, RecordBatch, RecordBatchStreamWriter, Schema, Table, type Vector } from 'apache-arrow';
import { nextTurn, PIECE_VALUES } from '../turns.js';
import type { WireRecord, WireValue } from '../types.js';
import { roundValue } from '../units.js';
import { columnType, columnTypeOf, doubleVector, recordsToTable, vectorOf, vectorsToTable } from './answer-table.js';
import { type Frame, type FrameColumn, numberAt, wireValueAt } from './frame.js';

/** The same table as recordsToTable(records, columns), as record batches of about PIECE_VALUES values each. */
export async function recordsToTableInPieces(records: readonly WireRecord[], columns: readonly string[]): Promise<Table> {
  // a type inferred from values is inferred from all of them, so that every piece has the same schema
  const types = new Map<string, DataType>(columns.map((c) => [c, columnType(c, records)]));
  const step = Math.max(1, Math.floor(PIECE_VALUES / Math.max(1, columns.length)));
  if (records.length <= step) return recordsToTable(records, columns, new Map(), types);
  const pieces: Table[] = [];
  for (let at = 0; at < records.length; at += step) {
    if (at > 0) await nextTurn();
    pieces.push(recordsToTable(records.slice(at, at + step), columns, new Map(), types));
  }
  return joinPieces(pieces);
}

/**
 * The table recordsToTableInPieces makes of the frames' records, built from their columns: days straight into dates,
 * measurements into doubles, a record batch of about PIECE_VALUES values per turn of the event loop.
 */
export async function framesToTableInPieces(frames: readonly Frame[], columns: readonly string[]): Promise<Table> {
  const held = frames.map((f) => new Map(f.columns.map((c) => [c.key, c]))); // a key's last column holds its values
  const types = new Map<string, DataType>(columns.map((c) => [c, columnTypeOf(c, () => numeric(frames, held, c))]));
  const pieces: Table[] = [];
  for (let at = 0; at < frames.length || pieces.length === 0; ) {
    if (pieces.length > 0) await nextTurn();
    let end = at;
    for (let values = 0; end < frames.length && (end === at || values + frames[end]!.rows * columns.length <= PIECE_VALUES); end++)
      values += frames[end]!.rows * columns.length;
    const vectors: Record<string, Vector> = {};
    for (const column of columns) vectors[column] = vectorOfFrames(frames.slice(at, end), held.slice(at, end), column, types.get(column)!);
    pieces.push(vectorsToTable(vectors));
    at = end;
  }
  return joinPieces(pieces);
}

// the pieces' batches as one table, under one schema: a field is nullable where any piece's is (a piece without gaps
// has a field that is not, and Arrow refuses a table of batches whose schemas differ)
function joinPieces(pieces: readonly Table[]): Table {
  if (pieces.length === 1) return pieces[0]!;
  const first = pieces[0]!.schema;
  const fields = first.fields.map((f, k) => (pieces.some((p) => p.schema.fields[k]!.nullable) ? new Field(f.name, f.type, true, f.metadata) : f));
  const schema = new Schema(fields, first.metadata);
  return new Table(
    schema,
    pieces.flatMap((t) => t.batches.map((b) => new RecordBatch(schema, b.data))),
  );
}

// whether a column's values are numbers and gaps, some numbers (columnType's test of records)
function numeric(frames: readonly Frame[], held: readonly Map<string, FrameColumn>[], key: string): boolean {
  let some = false;
  for (const [f, columns] of held.entries()) {
    const c = columns.get(key);
    if (c === undefined || frames[f]!.rows === 0) continue;
    if (c.kind === 'day') return false;
    if (c.kind === 'number') some ||= Array.prototype.some.call(c.values, (x: number) => x === x);
    else if (c.kind === 'label') return false;
    else
      for (const v of c.kind === 'same' ? [c.value] : c.values) {
        if (typeof v === 'string') return false;
        some ||= typeof v === 'number';
      }
  }
  return some;
}

// one column of the frames as a vector: dates and doubles straight from their arrays, anything else through its wire values
function vectorOfFrames(frames: readonly Frame[], held: readonly Map<string, FrameColumn>[], key: string, type: DataType): Vector {
  const rows = frames.reduce((n, f) => n + f.rows, 0);
  const parts = held.map((columns) => columns.get(key));
  if (type instanceof DateDay && parts.every((c) => c?.kind === 'day')) {
    const days = new Int32Array(rows);
    let at = 0;
    parts.forEach((c, f) => {
      for (let i = 0; i < frames[f]!.rows; i++) days[at++] = (c as Extract<FrameColumn, { kind: 'day' }>).days[i]!;
    });
    return makeVector({ type, data: days });
  }
  if (type instanceof Float64 && parts.every((c) => c?.kind === 'number')) {
    const values = new Float64Array(rows);
    let at = 0;
    parts.forEach((c, f) => {
      for (let i = 0; i < frames[f]!.rows; i++) {
        const x = numberAt(c as Extract<FrameColumn, { kind: 'number' }>, i);
        values[at++] = x !== x ? x : roundValue(x);
      }
    });
    return doubleVector(values);
  }
  const values: WireValue[] = [];
  for (let f = 0; f < frames.length; f++) for (let i = 0; i < frames[f]!.rows; i++) values.push(parts[f] ? wireValueAt(parts[f]!, i) : null);
  return vectorOf(type, values, key);
}

/** A table as one Arrow IPC stream (as tableToArrowStream), written a record batch per turn of the event loop. */
export async function tableToArrowStreamInPieces(table: Table): Promise<Uint8Array> {
  const writer = new RecordBatchStreamWriter();
  writer.reset(undefined, table.schema);
  for (const [i, batch] of table.batches.entries()) {
    if (i > 0) await nextTurn();
    writer.write(batch);
  }
  writer.finish();
  return writer.toUint8Array(true);
}
