// An answer's records as an Arrow table built a piece at a time, giving the event loop a turn between pieces: a table
// of every demo reservoir over three years (73,000 records x 27 columns) took 2 s of one uninterrupted turn, during
// which a server answered nothing else.
import { type DataType, RecordBatchStreamWriter, Table } from 'apache-arrow';
import { nextTurn, PIECE_VALUES } from '../turns.js';
import type { WireRecord } from '../types.js';
import { columnType, recordsToTable } from './answer-table.js';

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
  return new Table(
    pieces[0]!.schema,
    pieces.flatMap((t) => t.batches),
  );
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
