// The server's one cache of answers (RFC 9110 section 13): whole answers by the snapshot they are read from and their
// normalized query, bounded by the bytes of their bodies; each answer's entity tag, made of those two; and, by request
// target, the head an answer was last written with, so that the Node adapter can write it again without the handler
// while the answer is kept and its check passes (process/replays.ts). A new snapshot is a new key, so a revision is
// never answered from here; entries of replaced snapshots leave as newer answers push them out.
import { createHash } from 'node:crypto';
import { compareText } from '../lib/order.js';
import { ByteBoundedCache } from '../lib/store/cache.js';

/** One answer as sent: its status, headers and body bytes. */
export interface CachedAnswer {
  status: number;
  headers: readonly (readonly [string, string])[];
  body: Uint8Array<ArrayBuffer>;
}

/** An answer as the adapter wrote it: what writeHead and end were given. */
export interface Written {
  status: number;
  head: Readonly<Record<string, string>>; // never changed once kept: the same object is written for every request
  body: Uint8Array;
}

/** The headers of a request as a replay check reads them (Headers.get's result: values of a repeated name joined by ', '). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** Whether a request with these headers would get the very same answer again. */
export type ReplayCheck = (headers: HeaderReader) => boolean;

/** A kept answer's way back: told the head it was written with for a target, to be written that again (`again`). */
export type Replay = (target: string, head: Written['head']) => void;

/** Default bytes of answers kept (the --answer-cache-mib setting). */
const ANSWER_CACHE_BYTES = 64 * 2 ** 20;

/** Request targets whose written head is kept, and query strings whose key and tag are (each a few hundred bytes). */
const TARGETS = 256;

/** Recent answers, least recently used out first, with their tags and the heads they were written with. */
export class AnswerCache {
  private readonly answers: ByteBoundedCache<CachedAnswer>;
  private readonly tags = new Map<string, { key: string; tag: string }>(); // by snapshot, path and query string as sent
  private readonly targets = new Map<string, { key: string; answer: CachedAnswer; head: Written['head']; check: ReplayCheck }>();

  /** A cache holding `bytes` of answers; an answer above an eighth of that is not kept. */
  constructor(bytes = ANSWER_CACHE_BYTES) {
    this.answers = new ByteBoundedCache<CachedAnswer>(bytes, Math.floor(bytes / 8));
  }

  /**
   * The cache key and the tag of a query, from the path and the query string as sent: a function of those and the
   * snapshot alone, so worked out (sorted, encoded, hashed) once for the last 256 asked, not on every request.
   */
  tagOf(snapshot: string, path: string, url: URL): { key: string; tag: string } {
    const asked = `${snapshot}\n${path}\n${url.search}`;
    let found = this.tags.get(asked);
    if (found === undefined) {
      const key = `${snapshot}\n${normalizedQuery(path, url.searchParams)}`;
      found = { key, tag: answerTag(snapshot, key) };
      if (asked.length > 4096) return found; // a long query is not kept: the bound is on bytes too
      if (this.tags.size >= TARGETS) this.tags.delete(this.tags.keys().next().value!);
      this.tags.set(asked, found);
    }
    return found;
  }

  /** The answer kept under `key`, marked most recently used. */
  get(key: string): CachedAnswer | undefined {
    return this.answers.get(key);
  }

  /** Keeps an answer under `key` (not one above an eighth of the bound), pushing the least recently used out. */
  set(key: string, answer: CachedAnswer): void {
    this.answers.set(key, answer, answer.body.byteLength);
  }

  /** The way back of `answer`, kept under `key`: written again for a target while `check` passes. */
  replay(key: string, answer: CachedAnswer, check: ReplayCheck): Replay {
    return (target, head) => {
      this.targets.delete(target); // a target kept again is the newest
      if (this.targets.size >= TARGETS) this.targets.delete(this.targets.keys().next().value!);
      this.targets.set(target, { key, answer, head, check });
    };
  }

  /**
   * The answer last written for `target`, to be written again to a request with these headers: only while that very
   * answer is still kept (so its bytes are counted once, here) and its check passes. One that fails is forgotten.
   */
  again(target: string, headers: HeaderReader): Written | undefined {
    const written = this.targets.get(target);
    if (written === undefined) return undefined;
    if (this.answers.get(written.key) === written.answer && written.check(headers))
      return { status: written.answer.status, head: written.head, body: written.answer.body };
    this.targets.delete(target);
    return undefined;
  }

  /** The bytes of one answer at most (0: none is kept). */
  get maxEntryBytes(): number {
    return this.answers.maxEntryBytes;
  }

  /** Bytes of answers held, answers held, and targets whose head is kept. */
  get stats(): { bytes: number; answers: number; targets: number } {
    return { bytes: this.answers.size, answers: this.answers.count, targets: this.targets.size };
  }
}

/** The cache of recent answers the options give: their own (null: none), else a new one of `answerCacheBytes` (0: none). */
export function answerCacheOf(options: { answerCache?: AnswerCache | null; answerCacheBytes?: number }): AnswerCache | undefined {
  if (options.answerCache !== undefined) return options.answerCache ?? undefined;
  const bytes = options.answerCacheBytes ?? ANSWER_CACHE_BYTES;
  return bytes > 0 ? new AnswerCache(bytes) : undefined;
}

/** The query's parameters in one canonical order (by name; a repeated name keeps its values' order, which can matter), without the key. */
function normalizedQuery(path: string, params: URLSearchParams): string {
  const entries = [...params].filter(([name]) => name !== 'api_key' && name !== 'api-key');
  entries.sort((a, b) => compareText(a[0], b[0])); // stable: repeated names keep their order
  return `${path}?${new URLSearchParams(entries).toString()}`;
}

/**
 * The strong entity tag of an answer read from `snapshot` (the manifest's snapshot id, never reused) for a normalized
 * query. Strong: the identity bytes are the same for the same snapshot and query. A gzip-coded answer carries it weak
 * (answers.ts compress), as nginx does, since its bytes are another representation.
 */
function answerTag(snapshot: string, query: string): string {
  return `"${createHash('sha256').update(snapshot).update('\n').update(query).digest('base64url').slice(0, 27)}"`;
}
