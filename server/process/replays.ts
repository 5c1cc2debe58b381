// Answers written again straight from the socket. A GET whose target the handler has an answer ready for (its cache
// of answers says a request with these headers gets exactly the one last written: handler.again) is written that
// status, head and body without a web Request, a Response or the handler: those cost a cached answer four times what
// node:http itself does. Any other request goes the usual way.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderReader, Written } from '../answer-cache.js';
import { formatAccess, type Logger } from './log.js';

/** The adapter's query slots, by client address: taken while an answer is written, given back once. */
export interface Slots {
  take(client: string): void;
  give(client: string): void;
}

/**
 * Writes an answer again, as the adapter's listener would: the same slot, the same access line, the slot given back
 * once the answer is out or its connection gone (the response's close, or its socket's for one queued behind a
 * pipelined request that closed it); written at once, with no promise, signal or web object.
 */
export function writeAgain(incoming: IncomingMessage, outgoing: ServerResponse, again: Written, slots: Slots, logger: Logger): void {
  const started = performance.now();
  const socket = incoming.socket;
  const client = socket.remoteAddress ?? '';
  slots.take(client);
  let open = true;
  const settle = (out: boolean) => {
    if (!open) return;
    open = false;
    outgoing.removeListener('finish', done);
    outgoing.removeListener('close', cut);
    socket.removeListener('close', cut);
    if (!out) outgoing.destroy();
    slots.give(client);
    const ms = performance.now() - started;
    logger.info(formatAccess({ method: 'GET', target: incoming.url ?? '', status: again.status, ms, bytes: again.body.byteLength, aborted: !out }));
  };
  const done = () => settle(true);
  const cut = () => settle(outgoing.writableFinished);
  outgoing.once('finish', done);
  outgoing.once('close', cut);
  socket.once('close', cut);
  outgoing.writeHead(again.status, again.head);
  outgoing.end(again.body);
}

/**
 * A request's headers read as the handler's Headers reads them (toIncoming appends every raw header): the values of
 * a name, compared without case, in order, joined by ', ', each without leading or trailing HTTP whitespace.
 */
export function requestHeaders(incoming: Pick<IncomingMessage, 'rawHeaders'>): HeaderReader {
  const raw = incoming.rawHeaders;
  return {
    get(name) {
      const wanted = name.toLowerCase();
      let value: string | null = null;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const field = raw[i]!;
        if (field.length !== wanted.length || field.toLowerCase() !== wanted) continue;
        const one = withoutEdgeWhitespace(raw[i + 1]!);
        value = value === null ? one : `${value}, ${one}`;
      }
      return value;
    },
  };
}

// HTTP whitespace (tab, line feed, carriage return, space) at either end, as the Headers class drops it
const edgeWhitespace = /^[\t\n\r ]+|[\t\n\r ]+$/g;
function withoutEdgeWhitespace(value: string): string {
  if (value === '') return value;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  const edge = (c: number) => c === 9 || c === 10 || c === 13 || c === 32;
  return edge(first) || edge(last) ? value.replace(edgeWhitespace, '') : value;
}
