// Recent whole answers kept by bytes, keyed by the snapshot they were read from and their normalized query: a
// dashboard polling one query costs a lookup until the data changes. A new snapshot is a new key, so a revision is
// never answered from here; entries of replaced snapshots leave as newer answers push them out.

/** One answer as sent: its status, headers and body bytes. */
export interface CachedAnswer {
  status: number;
  headers: readonly (readonly [string, string])[];
  body: Uint8Array<ArrayBuffer>;
}

/** Default bytes of answers kept (the --answer-cache-mib setting). */
export const ANSWER_CACHE_BYTES = 64 * 2 ** 20;

/** A least-recently-used map of answers bounded by the bytes of their bodies; an answer above an eighth of the bound is not kept. */
export class AnswerCache {
  private readonly entries = new Map<string, CachedAnswer>(); // oldest use first
  private held = 0;
  readonly maxEntryBytes: number;

  constructor(readonly maxBytes = ANSWER_CACHE_BYTES) {
    this.maxEntryBytes = Math.floor(maxBytes / 8);
  }

  /** The answer kept under `key`, now the most recently used. */
  get(key: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Keeps an answer, pushing out the least recently used ones past the bound; one too large is not kept. */
  put(key: string, answer: CachedAnswer): void {
    this.remove(key);
    if (answer.body.byteLength > this.maxEntryBytes) return;
    this.entries.set(key, answer);
    this.held += answer.body.byteLength;
    for (const [oldest] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  /** Bytes of bodies held, and how many answers. */
  get stats(): { bytes: number; answers: number } {
    return { bytes: this.held, answers: this.entries.size };
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.held -= entry.body.byteLength;
  }
}
