// Avro object container files (Iceberg's manifests and manifest lists): avsc encodes and decodes the records, this
// file only frames them (header, one block, sync marker), as the Avro specification's "Object Container Files" says.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type avroModule from 'avsc';

/** An Avro schema as JSON, with the extra attributes Iceberg puts in it (`field-id`, `logicalType: map`). */
export type AvroSchema = Record<string, unknown>;

const MAGIC = Buffer.from([0x4f, 0x62, 0x6a, 0x01]); // "Obj" 1
// avsc is loaded on first use: it compiles its encoders with new Function, even its built-in types when it loads, which
// a process may forbid; the library's readers, and `import 'evap'`, then still work (only writing the tables needs it)
type Avro = typeof avroModule;
let loaded: { avro: Avro; header: avroModule.Type; long: avroModule.Type } | undefined;
function avsc(): { avro: Avro; header: avroModule.Type; long: avroModule.Type } {
  if (loaded) return loaded;
  const avro = createRequire(import.meta.url)('avsc') as Avro;
  loaded = {
    avro,
    header: avro.Type.forSchema({
      type: 'record',
      name: 'org.apache.avro.file.Header',
      fields: [
        { name: 'magic', type: { type: 'fixed', name: 'Magic', size: 4 } },
        { name: 'meta', type: { type: 'map', values: 'bytes' } },
        { name: 'sync', type: { type: 'fixed', name: 'Sync', size: 16 } },
      ],
    }),
    long: avro.Type.forSchema('long'),
  };
  return loaded;
}

/** Encodes records as one uncompressed block of an Avro container file, with the schema and `meta` in its header. */
export function encodeAvroFile(schema: AvroSchema, records: readonly unknown[], meta: Record<string, string> = {}): Uint8Array {
  const { avro, header: headerType, long: longType } = avsc();
  const type = avro.Type.forSchema(schema as avroModule.Schema);
  const body = Buffer.concat(records.map((r) => type.toBuffer(r)));
  const sync = createHash('sha256').update(body).update(JSON.stringify(meta)).digest().subarray(0, 16); // the same content gives the same bytes
  const header = headerType.toBuffer({
    magic: MAGIC,
    meta: Object.fromEntries(
      Object.entries({ ...meta, 'avro.schema': JSON.stringify(schema), 'avro.codec': 'null' }).map(([k, v]) => [k, Buffer.from(v, 'utf8')]),
    ),
    sync,
  });
  const blocks = records.length === 0 ? [] : [longType.toBuffer(records.length), longType.toBuffer(body.byteLength), body, sync];
  return new Uint8Array(Buffer.concat([header, ...blocks]));
}

/** The records and header metadata of an Avro container file (uncompressed, as encodeAvroFile writes them). */
export function decodeAvroFile(bytes: Uint8Array): { records: unknown[]; meta: Record<string, string> } {
  const { avro, header: headerType, long: longType } = avsc();
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { value: header, offset } = headerType.decode(buffer, 0);
  if (offset < 0 || !Buffer.from(header.magic).equals(MAGIC)) throw new Error('not an Avro container file');
  const meta = Object.fromEntries(Object.entries(header.meta as Record<string, Buffer>).map(([k, v]) => [k, v.toString('utf8')]));
  if ((meta['avro.codec'] ?? 'null') !== 'null') throw new Error(`Avro codec ${meta['avro.codec']} is not read here`);
  const type = avro.Type.forSchema(JSON.parse(meta['avro.schema']!) as avroModule.Schema);
  const records: unknown[] = [];
  for (let at = offset; at < buffer.byteLength; ) {
    const count = longType.decode(buffer, at);
    const size = longType.decode(buffer, count.offset);
    let pos = size.offset;
    for (let i = 0; i < count.value; i++) {
      const record = type.decode(buffer, pos);
      records.push(record.value);
      pos = record.offset;
    }
    at = size.offset + size.value + 16;
  }
  return { records, meta };
}
