// Answers as JSON or CSV, whole or streamed, gzip-compressed when the client accepts it.
import { csvChunks, recordsToCsv } from '../lib/csv.js';
import { jsonChunks } from '../lib/json.js';
import type { RecordStream } from '../lib/store.js';
import type { WireRecord } from '../lib/types.js';
import type { OutputFormat } from './params.js';

export const jsonType = 'application/json';
export const csvType = 'text/csv; charset=utf-8';

/** A small answer built whole: `value` as JSON, or `records` under `columns` as CSV. */
export function listResponse(format: OutputFormat, value: unknown, records: readonly WireRecord[], columns: readonly string[]): Response {
  if (format === 'csv') return new Response(recordsToCsv(records, columns), { headers: { 'content-type': csvType } });
  return new Response(JSON.stringify(value), { headers: { 'content-type': jsonType } });
}

/** A streamed timeseries answer; the first batch is read before answering, so a failure there is still a clean error. */
export async function streamResponse(format: OutputFormat, stream: RecordStream): Promise<Response> {
  const batches = await primed(stream.batches);
  const chunks = format === 'csv' ? csvChunks(stream.columns, batches) : jsonChunks(batches);
  return new Response(toByteStream(chunks), { headers: { 'content-type': format === 'csv' ? csvType : jsonType } });
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
export function compress(request: Request, response: Response): Response {
  if (!response.body || response.headers.has('content-encoding')) return response;
  const headers = new Headers(response.headers);
  headers.append('vary', 'Accept-Encoding');
  if (!acceptsGzip(request.headers.get('accept-encoding'))) return new Response(response.body, { status: response.status, headers });
  headers.set('content-encoding', 'gzip');
  headers.delete('content-length');
  const body = response.body.pipeThrough(new CompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>);
  return new Response(body, { status: response.status, headers });
}

// Pulls one batch ahead of time so that errors before the first record reach the error handler, not the socket.
async function primed<T>(batches: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const iterator = batches[Symbol.asyncIterator]();
  const first = await iterator.next();
  return {
    async *[Symbol.asyncIterator]() {
      try {
        if (first.done) return;
        yield first.value;
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
      } finally {
        await iterator.return?.();
      }
    },
  };
}

// A pull-based byte stream: the next chunk is produced only when the socket wants it; cancel stops the generator.
function toByteStream(chunks: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
