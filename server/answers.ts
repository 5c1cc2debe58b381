// Answers written as Responses, one place for all of them: JSON or CSV built whole or streamed, Parquet and Arrow
// built whole, GeoJSON for metadata, gzip when the client accepts it; and WholeResponse, an answer whose body is
// already in memory, which the node adapter writes at once with a Content-Length, skipping the web-stream plumbing
// (Readable.fromWeb, pipeline), which costs more than a small answer itself.
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createGzip } from 'node:zlib';
import type { Table } from 'apache-arrow';
import type { outputFormats } from '../lib/catalogue.js';
import { recordsToCsv } from '../lib/format/csv.js';
import { recordsToGeoJson } from '../lib/format/geojson.js';
import { mayExceed, type RecordStream, tooManyValues } from '../lib/format/stream.js';
import { nextTurn } from '../lib/turns.js';
import type { WireRecord } from '../lib/types.js';
import type { Replay } from './answer-cache.js';

/** The formats of the list paths; the timeseries paths add Parquet and Arrow, the metadata paths GeoJSON. */
export type OutputFormat = (typeof outputFormats.list)[number];
type TimeseriesFormat = (typeof outputFormats.series)[number];
export type ListFormat = (typeof outputFormats.places)[number];

// Answers whose whole body is already in memory

/**
 * A Response whose body the adapter sends directly; still a plain web Response for any other reader. The web body is
 * made only when something reads it (fetchFrom's callers, a test): the node adapter never does, and building it for
 * every answer cost about 6% of a one-reservoir query over HTTP.
 */
export class WholeResponse extends Response {
  readonly whole: string | Uint8Array<ArrayBuffer>; // the body as given
  /**
   * Set on a kept answer (cached-answers.ts): the node adapter tells it the head it wrote for the target, and a later
   * GET of that target whose headers pass the answer's check is written the very same status, head and bytes without
   * the handler (answer-cache.ts `again`, process/replays.ts).
   */
  replay?: Replay;
  #read: Response | undefined; // the web body, once asked for

  constructor(body: string | Uint8Array<ArrayBuffer>, init: ResponseInit) {
    super(null, init);
    this.whole = body;
  }

  /** The same answer as a Response made of its body, built on first use. */
  private get read(): Response {
    this.#read ??= new Response(this.whole, { status: this.status, statusText: this.statusText, headers: this.headers });
    return this.#read;
  }

  override text(): Promise<string> {
    return this.read.text();
  }
  override json(): Promise<unknown> {
    return this.read.json();
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.read.arrayBuffer();
  }
  override blob(): Promise<Blob> {
    return this.read.blob();
  }
  override formData(): Promise<FormData> {
    return this.read.formData();
  }
  override clone(): WholeResponse {
    return new WholeResponse(this.whole, { status: this.status, statusText: this.statusText, headers: new Headers(this.headers) });
  }
}

// body and bodyUsed are accessors of Response.prototype (typed as properties, so not overridable in the class body)
Object.defineProperty(WholeResponse.prototype, 'body', {
  get(this: WholeResponse) {
    return (this as unknown as { read: Response }).read.body;
  },
});
Object.defineProperty(WholeResponse.prototype, 'bodyUsed', {
  get(this: WholeResponse) {
    return (this as unknown as { read: Response }).read.bodyUsed;
  },
});
// bytes() where the runtime has it (Node 22 and later)
Object.defineProperty(WholeResponse.prototype, 'bytes', {
  value(this: WholeResponse) {
    return (this as unknown as { read: { bytes(): Promise<Uint8Array> } }).read.bytes();
  },
});

// Answers by format

const jsonType = 'application/json';
const csvType = 'text/csv; charset=utf-8';

/** A small answer built whole: `value` as JSON, or `records` under `columns` as CSV. */
export function listResponse(format: OutputFormat, value: unknown, records: readonly WireRecord[], columns: readonly string[]): Response {
  if (format === 'csv') return new WholeResponse(recordsToCsv(records, columns), { headers: { 'content-type': csvType } });
  return new WholeResponse(JSON.stringify(value), { headers: { 'content-type': jsonType } });
}

/** Answers up to this many characters are built whole and sent with a Content-Length; longer ones are streamed. */
const WHOLE_ANSWER_CHARS = 1 << 20;

/**
 * A timeseries answer: the text is produced batch by batch; an answer that ends within WHOLE_ANSWER_CHARS is sent
 * whole, a longer one is streamed from where it got to. Errors before then (bad partitions included) get a clean status.
 */
export async function streamResponse(format: OutputFormat, stream: RecordStream): Promise<Response> {
  return textResponse(format === 'csv' ? stream.csv() : stream.json(), format === 'csv' ? csvType : jsonType);
}

/** Text made in chunks as a Response of `type`: whole up to WHOLE_ANSWER_CHARS, else streamed as the socket asks (streamResponse). */
export async function textResponse(text: AsyncIterable<string>, type: string): Promise<Response> {
  const chunks = text[Symbol.asyncIterator]();
  const head: string[] = [];
  let length = 0;
  while (length <= WHOLE_ANSWER_CHARS) {
    const next = await chunks.next();
    if (next.done) return new WholeResponse(head.join(''), { headers: { 'content-type': type } });
    head.push(next.value);
    length += next.value.length;
  }
  return new Response(toByteStream(head, chunks), { headers: { 'content-type': type } });
}

/** Whether an Accept-Encoding header admits gzip (a q=0 refuses it). */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  return header.split(',').some((entry) => {
    const [coding, ...params] = entry.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** The response gzip-compressed (streaming, via CompressionStream) when the request accepts it. */
export function compress(request: { readonly headers: Headers }, response: Response): Response {
  const empty = response instanceof WholeResponse ? false : !response.body; // a whole answer's web body is not made here
  if (empty || response.headers.has('content-encoding')) return response;
  response.headers.append('vary', 'Accept-Encoding'); // in place: a whole answer stays whole
  if (!acceptsGzip(request.headers.get('accept-encoding'))) return response;
  const headers = new Headers(response.headers);
  headers.set('content-encoding', 'gzip');
  headers.delete('content-length');
  const tag = headers.get('etag'); // the gzip bytes are another representation: the identity answer's strong tag becomes weak (as nginx does)
  if (tag?.startsWith('"')) headers.set('etag', `W/${tag}`);
  const source = response instanceof WholeResponse ? new Blob([response.whole]).stream() : response.body;
  // node streams end to end: CompressionStream kept pulling the source whatever the client read (256 MiB held for one
  // client that never read, measured); Readable.fromWeb pulls on demand, pipe and toWeb pass the back-pressure on
  const gzip = createGzip();
  pipeline(Readable.fromWeb(source as NodeReadableStream<Uint8Array>), gzip, () => {}); // a failure mid-way destroys gzip, so the answer is cut, not hung
  return new Response(Readable.toWeb(gzip) as ReadableStream<Uint8Array>, { status: response.status, headers });
}

/** Characters of text sent per turn of the event loop when an answer is streamed. */
const STREAM_PIECE_CHARS = 1 << 16;

// A pull-based byte stream: the text already made first, then the next chunk only when the socket wants it.
function toByteStream(head: string[], chunks: AsyncIterator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(head.join('')));
    },
    async pull(controller) {
      await nextTurn(); // from a warm cache every chunk is ready at once: let other requests in between
      // chunks can be single records: gather about 64 KiB per turn of the event loop (a turn per record made a
      // 5,000-record answer take 5,000 turns, 3 requests/s under load)
      const parts: string[] = [];
      let length = 0;
      while (length < STREAM_PIECE_CHARS) {
        const next = await chunks.next();
        if (next.done) break;
        parts.push(next.value);
        length += next.value.length;
      }
      if (parts.length > 0) controller.enqueue(encoder.encode(parts.join('')));
      if (length < STREAM_PIECE_CHARS) controller.close();
    },
    async cancel() {
      await chunks.return?.(undefined);
    },
  });
}

/** Values (records x columns) a Parquet or Arrow answer may hold: it is built whole; 11 times the daily Q4 answer (one reservoir, 24 variables, 46 years). */
export const MAX_TABLE_VALUES = 5_000_000;

const parquetType = 'application/vnd.apache.parquet';
const arrowType = 'application/vnd.apache.arrow.stream';
const geojsonType = 'application/geo+json';

/** Whether an answer in `format` is built whole before its first byte (Parquet, Arrow), not streamed (JSON, CSV). */
export function builtWhole(format: string | undefined): format is 'parquet' | 'arrow' {
  return format === 'parquet' || format === 'arrow';
}

/**
 * A timeseries answer: JSON or CSV streamed as before; Parquet or Arrow built whole from the records (same columns),
 * refused before anything is read when it could hold more than MAX_TABLE_VALUES, and built without holding the event
 * loop: the table a piece per turn, the Parquet file on a worker thread.
 */
export async function timeseriesAnswer(format: TimeseriesFormat, stream: RecordStream): Promise<Response> {
  if (!builtWhole(format)) return streamResponse(format, stream);
  if (mayExceed(stream, MAX_TABLE_VALUES)) throw tooManyValues(MAX_TABLE_VALUES); // before waiting for a turn, before any row is read
  const table = await stream.table(MAX_TABLE_VALUES);
  // Arrow and parquet-wasm are loaded by the first such answer, not by every server process (about 150 ms of CPU)
  const bytes = format === 'parquet' ? await parquetBytes(table) : await arrowBytes(table);
  return new WholeResponse(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': format === 'parquet' ? parquetType : arrowType } });
}

async function parquetBytes(table: Table): Promise<Uint8Array> {
  const { tableToParquetOffThread } = await import('../lib/format/parquet-threads.js');
  return tableToParquetOffThread(table);
}

async function arrowBytes(table: Table): Promise<Uint8Array> {
  const { tableToArrowStreamInPieces } = await import('../lib/format/table-pieces.js');
  return tableToArrowStreamInPieces(table);
}

/** A metadata answer (or a name listing given as its names' metadata) as GeoJSON, or as JSON / CSV as before. */
export function metadataAnswer(
  format: ListFormat,
  value: unknown,
  records: readonly WireRecord[],
  columns: readonly string[],
  nameKey: string,
  located: () => readonly WireRecord[] = () => records,
): Response {
  if (format === 'geojson') return new WholeResponse(JSON.stringify(recordsToGeoJson(located(), nameKey)), { headers: { 'content-type': geojsonType } });
  return listResponse(format, value, records, columns);
}
