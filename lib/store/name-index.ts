// Names of a snapshot and their positions, without building a Map of every name when a store opens: a query of one
// reservoir looks up one name, and at 44,000 names a Map (and a Set) cost more than the query. The manifest keeps names
// in code-unit order (the writer sorts them), so a few lookups are binary searches; many lookups, or a list that does
// not ascend (a manifest written by hand), build the Map once.
import { partitionPoint } from '../order.js';

// lookups answered by binary search before the Map is built (a one-date query of every name looks up each of them)
const SEARCHES_BEFORE_MAP = 64;

/** The names of a list as a set, and each name's position in the list (the last one, for a name listed twice). */
export class NameIndex implements ReadonlySet<string> {
  private map: Map<string, number> | undefined;
  private ascending: boolean | undefined;
  private searches = 0;

  constructor(readonly names: readonly string[]) {}

  /** The position of `name` in the list, or undefined when it is not there. */
  get(name: string): number | undefined {
    if (this.map === undefined && this.isAscending() && this.searches++ < SEARCHES_BEFORE_MAP) {
      const at = partitionPoint(this.names, (n) => n < name);
      return this.names[at] === name ? at : undefined;
    }
    return this.byName().get(name);
  }

  has(name: string): boolean {
    return typeof name === 'string' && this.get(name) !== undefined;
  }

  get size(): number {
    return this.isAscending() ? this.names.length : this.byName().size;
  }

  *values(): SetIterator<string> {
    yield* this.isAscending() ? this.names : this.byName().keys();
  }

  keys(): SetIterator<string> {
    return this.values();
  }

  *entries(): SetIterator<[string, string]> {
    for (const name of this.values()) yield [name, name];
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.values();
  }

  forEach(callback: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const name of this.values()) callback.call(thisArg, name, name, this);
  }

  // strictly ascending in code-unit order (so no name twice), checked once
  private isAscending(): boolean {
    if (this.ascending === undefined) {
      const names = this.names;
      let ascending = true;
      for (let i = 1; i < names.length && ascending; i++) ascending = names[i - 1]! < names[i]!;
      this.ascending = ascending;
    }
    return this.ascending;
  }

  private byName(): Map<string, number> {
    this.map ??= new Map(this.names.map((n, i) => [n, i]));
    return this.map;
  }
}
