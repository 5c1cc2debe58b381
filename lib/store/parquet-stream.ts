// Parquet written a row group at a time (a forecast issue of 44,000 reservoirs is ten million rows: encoded whole, its
// Arrow table, IPC copy, wasm table and bytes took 8.7 GB). parquet-wasm's stream writer flushes each row group as
// its rows arrive; the bytes pass through here on their way to the storage, each column chunk's pages walked (their
// headers say their size and values) to take the chunk's checksum, which the footer (written last, with a placeholder
// of the same length) then gets in place of the placeholder. Memory: a row group and a page, whatever the file's size.
import { createHash, type Hash } from 'node:crypto';
import { Field, RecordBatch, Schema, Table, tableToIPC } from 'apache-arrow';
import * as wasm from 'parquet-wasm';
import { StoreError } from '../errors.js';
import { CHUNK_SUMS_KEY, chunkRanges, type Footer, footerOf } from './parquet.js';
import { parseMetadata, readPageHeader } from './parquet-decode.js';
import { sumsText, writerProperties } from './parquet-encode.js';

/** What a streamed file came to, filled in when its last piece has passed. */
export interface StreamedParquet {
  bytes: number;
  sha256: string;
  rest: Uint8Array; // what follows the last chunk: any page indexes, the footer, its length and the magic
  footer: Footer; // the footer parsed, with the chunks' checksums
  footerLength: number; // bytes of the footer, its length and the magic
}

/**
 * The bytes of a Parquet file of `rows` rows in row groups of `rowGroupSize`, from batches of exactly `rowGroupSize`
 * rows (the last one the rest) with `columns` columns each. `done` is filled when the last piece has been taken.
 */
export async function* encodeParquetStream(
  batches: AsyncIterable<Table>,
  plan: { rows: number; rowGroupSize: number; columns: number },
  done: Partial<StreamedParquet>,
): AsyncGenerator<Uint8Array> {
  const groups = Math.ceil(plan.rows / plan.rowGroupSize);
  if (groups === 0) throw new StoreError('a streamed Parquet file needs rows');
  const placeholder = sumsText(Array.from({ length: groups }, () => Array.from({ length: plan.columns }, () => '0'.repeat(32))));
  const source = batches[Symbol.asyncIterator]();
  let given = 0;
  let refused: StoreError | undefined; // said rather than the stream writer's own error
  let schema: Schema | undefined;
  const input = new ReadableStream({
    async pull(controller) {
      const next = await source.next();
      const expected = Math.min(plan.rowGroupSize, plan.rows - given);
      if (next.done ? given !== plan.rows : next.value.numRows !== expected) {
        refused = new StoreError(
          next.done
            ? `a streamed Parquet file was given ${given} rows, not ${plan.rows}`
            : `a streamed row group has ${next.value.numRows} rows, not ${expected}`,
        );
        controller.close(); // ended cleanly (an error put in the stream reaches the writer as a value it cannot take): the refusal is thrown below
        return;
      }
      if (next.done) return controller.close();
      given += next.value.numRows;
      // every batch with the same schema, each column nullable: the first batch's would say "no nulls" where a later one has some
      schema ??= nullable(next.value.schema);
      const table = new Table(
        schema,
        next.value.batches.map((b) => new RecordBatch(schema!, b.data)),
      );
      for (const batch of wasm.Table.fromIPCStream(tableToIPC(table, 'stream')).recordBatches()) controller.enqueue(batch);
    },
  });
  const properties = writerProperties(plan.rowGroupSize, new Map([[CHUNK_SUMS_KEY, placeholder]]));
  const output = (
    await wasm.transformParquetStream(input, properties).catch((error: unknown) => {
      throw refused ?? error;
    })
  ).getReader();
  const file = createHash('sha256');
  const walk = chunkWalker(groups, plan, file);
  let size = 0;
  for (;;) {
    const { done: ended, value } = await output.read().catch((error: unknown) => {
      throw refused ?? error;
    });
    if (ended || refused) break;
    const passed = walk.add(value as Uint8Array);
    if (passed.byteLength > 0) {
      size += passed.byteLength;
      yield passed;
    }
  }
  if (refused) throw refused;
  const tail = walk.rest();
  const metadata = parseMetadata(tail);
  const ranges = chunkRanges(metadata);
  if (JSON.stringify(ranges) !== JSON.stringify(walk.ranges)) throw new StoreError('a streamed Parquet file was not laid out as its pages said');
  const text = Buffer.from(tail.buffer, tail.byteOffset, tail.byteLength);
  const at = text.indexOf(placeholder, 0, 'latin1');
  if (at < 0 || text.indexOf(placeholder, at + 1, 'latin1') >= 0) throw new StoreError('a streamed Parquet footer has no single place for its checksums');
  const sums = sumsText(walk.sums);
  text.write(sums, at, 'latin1');
  // the parsed footer as the bytes now say, handed to the writer: parsed once (at 44,000 reservoirs a footer of 4,000
  // row groups was parsed three times, the file's peak memory: 250 MB of heap more than while its rows streamed)
  for (const kv of metadata.key_value_metadata ?? []) if (kv.key === CHUNK_SUMS_KEY) kv.value = sums;
  file.update(tail);
  size += tail.byteLength;
  const footer = footerOf(metadata);
  Object.assign(done, { bytes: size, sha256: file.digest('hex'), rest: tail, footer, footerLength: metadata.metadata_length + 8 });
  yield tail;
}

// walks the pages of each row group's chunks as the bytes arrive: each chunk's byte range and checksum; the bytes
// wholly walked are handed on (and hashed into the file's checksum), the footer kept back until the end
function chunkWalker(groups: number, plan: { rows: number; rowGroupSize: number; columns: number }, file: Hash) {
  const sums: string[][] = [];
  const ranges: [number, number][][] = [];
  let pending: Uint8Array = new Uint8Array(0);
  let offset = 0; // the file position of pending[0]
  let at = 4; // the magic first
  let group = 0;
  let column = 0;
  let values = 0;
  let chunkStart = 4;
  let chunk = createHash('sha256');
  const rowsOf = (g: number) => Math.min(plan.rowGroupSize, plan.rows - g * plan.rowGroupSize);
  return {
    sums,
    ranges,
    add(piece: Uint8Array): Uint8Array {
      pending = pending.byteLength === 0 ? piece : Buffer.concat([pending, piece]);
      while (group < groups) {
        const local = at - offset;
        let header: ReturnType<typeof readPageHeader>;
        try {
          header = readPageHeader(pending, local);
        } catch {
          break; // the header is not all here yet
        }
        const end = header.dataStart + header.compressedSize;
        if (end > pending.byteLength) break;
        chunk.update(pending.subarray(local, end));
        at = offset + end;
        values += header.values;
        if (values >= rowsOf(group)) {
          (sums[group] ??= []).push(chunk.digest('hex').slice(0, 32));
          (ranges[group] ??= []).push([chunkStart, at]);
          chunk = createHash('sha256');
          chunkStart = at;
          values = 0;
          if (++column === plan.columns) {
            column = 0;
            group++;
          }
        }
      }
      // hand on what is walked (the magic, whole pages: their chunk's checksum has them), keep the rest
      const walked = at - offset;
      const passed = pending.subarray(0, walked);
      file.update(passed);
      pending = pending.subarray(walked);
      offset += walked;
      return passed;
    },
    rest(): Uint8Array {
      if (group < groups) throw new StoreError(`a streamed Parquet file ended in row group ${group} of ${groups}`);
      return Uint8Array.from(pending);
    },
  };
}

function nullable(schema: Schema): Schema {
  return new Schema(
    schema.fields.map((f) => new Field(f.name, f.type, true, f.metadata)),
    schema.metadata,
  );
}
