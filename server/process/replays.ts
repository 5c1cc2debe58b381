// Answers written again straight from the socket. A GET whose target the handler has an answer ready for (its cache
// of answers says a request with these headers gets exactly the one last written: handler.again) is written that
// status, head and body without a web Request, a Response or the handler: those cost a cached answer four times what
// node:http itself does. Any other request goes the usual way.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Written } from '../answer-cache.js';
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
