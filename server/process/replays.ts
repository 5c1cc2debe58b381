// Kept answers sent again straight from the socket. A GET whose target last got a kept answer (answer-cache.ts) is
// sent the same status, headers and bytes once that answer's own check says a request with these headers would get
// exactly them again (the key accepted, no rate limit, the snapshot still current, no If-None-Match, no gzip, the
// answer still kept), without a web Request, a Response or the handler: those cost a cached answer four times what
// node:http itself does. Any other request, or a check that fails, goes the usual way.
import type { IncomingMessage } from 'node:http';
import type { HeaderReader, ReplayCheck } from '../answers.js';

/** An answer as it was written: what writeHead and end were given, and the check a new request must pass. */
export interface Replay {
  status: number;
  head: Readonly<Record<string, string>>; // never changed once kept: the same object is written for every request
  body: Uint8Array;
  check: ReplayCheck;
}

/** The last answers kept by request target, bounded by their number and by the bytes of their bodies (oldest out). */
export class Replays {
  private readonly byTarget = new Map<string, Replay>();
  private held = 0;

  constructor(
    readonly maxTargets = 256,
    readonly maxBytes = 32 * 2 ** 20, // most bodies are the cache's own, held anyway; this bounds those it has let go
  ) {}

  /** The answer to send again for this request, if its check passes (one that fails is forgotten). */
  match(incoming: IncomingMessage): Replay | undefined {
    const target = incoming.url;
    const replay = target === undefined ? undefined : this.byTarget.get(target);
    if (replay === undefined) return undefined;
    if (replay.check(requestHeaders(incoming))) return replay;
    this.forget(target!);
    return undefined;
  }

  /** Keeps an answer just written for `target`. */
  remember(target: string, replay: Replay): void {
    this.forget(target);
    if (replay.body.byteLength > this.maxBytes) return;
    this.byTarget.set(target, replay);
    this.held += replay.body.byteLength;
    for (const [oldest] of this.byTarget) {
      if (this.byTarget.size <= this.maxTargets && this.held <= this.maxBytes) break;
      this.forget(oldest);
    }
  }

  /** Targets kept, and the bytes of their bodies. */
  get stats(): { targets: number; bytes: number } {
    return { targets: this.byTarget.size, bytes: this.held };
  }

  private forget(target: string): void {
    const replay = this.byTarget.get(target);
    if (!replay) return;
    this.byTarget.delete(target);
    this.held -= replay.body.byteLength;
  }
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
