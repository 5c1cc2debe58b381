// Views of past snapshots shared between the readers that ask for them: a few kept open, each holding one lease.
//
// A lease is a file write (on a bucket a PUT, then a rewrite every 30 s), so one is not taken per as_of request: a
// view is kept while it is among the few most recently asked, and each use of it is counted. Its lease goes when it
// is both out of the cache (evicted, or the store closed) and unused: a view evicted while an answer still streams
// from it keeps its snapshot's files until that answer ends, and one in the cache costs the next request nothing.

/** An opened view and the release of what it holds (its lease). */
export interface Opened<V> {
  value: V;
  release: () => Promise<void>;
}

/** One use of a shared view: `done()` ends it (a second call does nothing). */
export interface Lent<V> {
  value: V;
  done: () => Promise<void>;
}

interface Entry<V> {
  opened: Promise<Opened<V>>;
  users: number; // uses not yet done
  cached: boolean; // still in the cache: false once evicted
}

/** Shared, reference-counted views keyed by snapshot, the `capacity` most recently used kept open while idle. */
export class SharedViews<K, V> {
  private readonly entries = new Map<K, Entry<V>>(); // in order of use, least recent first
  private closed = false;

  constructor(private readonly capacity: number) {}

  /** A use of the view of `key`, opened by `open` unless the cache holds it; end it with `done()`. */
  async use(key: K, open: () => Promise<Opened<V>>): Promise<Lent<V>> {
    let entry = this.entries.get(key);
    if (entry) this.entries.delete(key);
    else {
      entry = { opened: open(), users: 0, cached: true };
      entry.opened.catch(() => undefined); // a failed opening is the caller's error below, never an unhandled one
    }
    entry.users++; // counted before waiting, so that no eviction meanwhile releases it
    if (!this.closed) this.entries.set(key, entry);
    else entry.cached = false;
    let opened: Opened<V>;
    try {
      opened = await entry.opened;
    } catch (error) {
      if (this.entries.get(key) === entry) this.entries.delete(key); // the next use tries again
      entry.cached = false;
      entry.users--;
      throw error;
    }
    await this.evict(this.capacity); // once opened: a view that fails to open evicts none
    let done = false;
    return {
      value: opened.value,
      done: async () => {
        if (done) return;
        done = true;
        entry.users--;
        await this.releaseIfIdle(entry);
      },
    };
  }

  /** Empties the cache and keeps nothing from now on: idle views are released now, those in use when their last use ends. */
  async close(): Promise<void> {
    this.closed = true;
    await this.evict(0);
  }

  private async evict(keep: number): Promise<void> {
    const evicted: Entry<V>[] = [];
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= keep) break;
      this.entries.delete(key);
      entry.cached = false;
      evicted.push(entry);
    }
    await Promise.all(evicted.map((entry) => this.releaseIfIdle(entry)));
  }

  private async releaseIfIdle(entry: Entry<V>): Promise<void> {
    if (entry.cached || entry.users > 0) return;
    const opened = await entry.opened.catch(() => undefined);
    // a lease that cannot be removed now ends with its holder (a folder's at exit, a bucket's once no longer rewritten)
    await opened?.release().catch(() => undefined);
  }
}
