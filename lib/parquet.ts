// Parquet bytes <-> Arrow tables, through parquet-wasm and apache-arrow.
import { Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import * as wasm from 'parquet-wasm';

/** Encodes an Arrow table as Parquet (zstd, fixed row-group size, statistics on) that any engine reads. */
export function encodeParquet(table: Table, rowGroupSize: number): Uint8Array {
  const properties = new wasm.WriterPropertiesBuilder()
    .setCompression(wasm.Compression.ZSTD)
    .setMaxRowGroupSize(rowGroupSize)
    .setCreatedBy('evap')
    .build();
  const wasmTable = wasm.Table.fromIPCStream(tableToIPC(table, 'stream'));
  return wasm.writeParquet(wasmTable, properties);
}

/**
 * Decodes Parquet bytes into an Arrow table, only the given row groups when asked.
 * parquet-wasm 0.8's readParquet ignores its `columns` option (tested), so row groups are the unit of selection.
 */
export function decodeParquet(bytes: Uint8Array, rowGroups?: readonly number[]): Table {
  const options = rowGroups ? { rowGroups: [...rowGroups] } : undefined;
  return tableFromIPC(wasm.readParquet(bytes, options).intoIPCStream());
}
