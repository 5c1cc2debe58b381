// Requests refused before the handler (no Host, an unknown Expect, CONNECT, what node:http cannot parse or that
// came too slowly): answered in JSON like every other refusal, then the connection closes.
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { detailBody } from '../errors.js';
import { formatAccess, type Logger } from './log.js';

// A refusal before the handler (no Host, an unknown Expect): JSON like every other answer, then the connection closes.
export function answerPlain(res: ServerResponse, status: number, detail: string): void {
  const body = detailBody(detail);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
}

// Requests node:http cannot parse or that time out never reach the handler: answer them in JSON too, then close.
export function refuse(error: NodeJS.ErrnoException, socket: Socket, inFlight: ServerResponse | undefined, logger: Logger): void {
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  // as node's default handler: answer unless a response on this (keep-alive) socket has begun
  if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    const detail =
      status === 431
        ? 'the request line and headers are too large'
        : status === 408
          ? 'the request was not received in time'
          : `malformed HTTP request (${error.code ?? 'parse error'})`;
    const answer = rawAnswer(status, detail);
    socket.end(answer);
    logger.info(formatAccess({ method: '-', target: '-', status, ms: 0, bytes: Buffer.byteLength(detailBody(detail)), aborted: false })); // no raw bytes: they may hold a key
  }
  setTimeout(() => socket.destroy(), 500).unref(); // after the answer is flushed, even if the client keeps sending
}

// A whole HTTP/1.1 answer written on a raw socket, where node:http has no response to write it with: JSON, then close.
export function rawAnswer(status: number, detail: string): string {
  const body = detailBody(detail);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}
