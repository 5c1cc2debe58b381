// A least-recently-used cache bounded by bytes, for decoded row groups and raw file bytes (and the server's recent answers).

/** A Map in recency order whose total byte size stays under a bound. */
export class ByteBoundedCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(
    readonly maxBytes: number,
    readonly maxEntryBytes = maxBytes, // a larger value is served, not kept
  ) {}

  /** The cached value, marked most recently used; undefined when absent. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * Stores a value, evicting the least recently used entries until the bound holds; with `evict` false, only if it fits
   * beside what is held (a scan larger than the cache then keeps its first part, where evicting would keep its last,
   * which the same scan again never finds before evicting it in turn).
   */
  set(key: string, value: V, bytes: number, evict = true): void {
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.bytes;
      this.entries.delete(key);
    }
    if (bytes > this.maxEntryBytes) return; // larger than an entry may be: serve it, keep nothing
    if (!evict && this.total + bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= entry.bytes;
    }
  }

  /** Bytes currently held. */
  get size(): number {
    return this.total;
  }

  /** Entries currently held. */
  get count(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }
}
