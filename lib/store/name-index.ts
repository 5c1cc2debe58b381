// Names of a snapshot and their positions, without building a Map of every name when a store opens: a query of one
// reservoir looks up one name, and at 44,000 names a Map (and a Set) cost more than the query. The manifest keeps names
// in code-unit order (the writer sorts them), so a few lookups are binary searches; many lookups, or a list that does
// not ascend (a manifest written by hand), build the Map once. Names read from a names file (names-file.ts) are
// searched in its bytes: the list of 44,000 strings is made only when something asks for all of them.
import { StoreError } from '../errors.js';
import { firstAfter, partitionPoint } from '../order.js';

// lookups answered by binary search before the Map is built (a one-date query of every name looks up each of them)
const SEARCHES_BEFORE_MAP = 64;

/** The names of a list as a set, and each name's position in the list (the last one, for a name listed twice). */
export class NameIndex implements ReadonlySet<string> {
  private map: Map<string, number> | undefined;
  private ascending: boolean | undefined;
  private searches = 0;

  /** `of.names` gives the names (a list a names file makes on first use); `lines`, when given, holds them one a line. */
  constructor(
    private readonly of: { readonly names: readonly string[] },
    private readonly lines?: NameLines,
  ) {}

  get names(): readonly string[] {
    return this.of.names;
  }

  /** The position of `name` in the list, or undefined when it is not there. */
  get(name: string): number | undefined {
    if (this.map === undefined && this.searches < SEARCHES_BEFORE_MAP) {
      this.searches++;
      // in the file's lines while the list is not made: a name found there is at that line whatever the order (the
      // writer lists names ascending, each once); a name not found is known absent only once the list is known to ascend
      if (this.lines !== undefined && this.ascending === undefined) {
        const at = this.searchLines(this.lines, name);
        if (at !== undefined) return at;
      }
      if (this.isAscending()) {
        const at = partitionPoint(this.names, (n) => n < name);
        return this.names[at] === name ? at : undefined;
      }
    }
    return this.byName().get(name);
  }

  has(name: string): boolean {
    if (typeof name !== 'string') return false;
    // a name found in the file's bytes is there: no line offsets made (a query of one reservoir asks only this); many
    // names asked (every reservoir) are looked up as get() does, in the Map once it is worth making
    if (this.map === undefined && this.lines !== undefined && !this.lines.indexed && this.searches < SEARCHES_BEFORE_MAP) {
      this.searches++;
      if (this.lines.contains(name)) return true;
    }
    return this.get(name) !== undefined;
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

  // the line of `name`, the last of a run of it (as the Map keeps the last place of a name listed twice)
  private searchLines(lines: NameLines, name: string): number | undefined {
    let at = partitionPoint(lines.starts, (start) => lines.lineAt(start) < name, 0, lines.count);
    if (at === lines.count || lines.line(at) !== name) return undefined;
    while (at + 1 < lines.count && lines.line(at + 1) === name) at++;
    return at;
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

/**
 * A names file's lines (names-file.ts), each read as asked: a binary search reads about 16 of 44,000. Where each line
 * begins is worked out on first need: finding whether a name is there needs none of it, and at 44,000 names that scan
 * was a twentieth of a cold one-reservoir answer.
 */
export class NameLines {
  private lineStarts: Int32Array | undefined;

  /**
   * `expected`: the number of lines the manifest says the file holds (checked when the lines are first scanned);
   * `path`: the file's, for the errors that say what is wrong with it.
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly expected: number,
    private readonly path = 'the names file',
  ) {
    if (bytes.length > 0 && bytes[bytes.length - 1] !== 10) throw new StoreError(`store file ${this.path} does not end with a line break`);
  }

  /** Whether the line offsets are made (the search by line number is then as cheap as the one over bytes). */
  get indexed(): boolean {
    return this.lineStarts !== undefined;
  }

  /** Where each line begins, then the end of the file. */
  get starts(): Int32Array {
    if (this.lineStarts === undefined) {
      const bytes = this.bytes;
      const starts = new Int32Array(this.expected + 1); // sized by the manifest: no growing list for the collector
      let lines = 0;
      for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) if (++lines <= this.expected) starts[lines] = at + 1;
      this.checkCount(lines);
      this.lineStarts = starts;
    }
    return this.lineStarts;
  }

  /** Refuses a count of names found in the file other than the manifest's. */
  checkCount(found: number): void {
    if (found !== this.expected) throw new StoreError(`store file ${this.path} holds ${found} names, its manifest says ${this.expected}`);
  }

  /** The number of lines, as the manifest says (a store's size needs no scan; the scan checks it). */
  get count(): number {
    return this.expected;
  }

  line(i: number): string {
    return this.lineAt(this.starts[i]!);
  }

  /** The line beginning at byte `start`. */
  lineAt(start: number): string {
    const text = utf8.decode(this.bytes.subarray(start, this.bytes.indexOf(10, start)));
    return text.includes('\\') ? unescapeName(text) : text;
  }

  /**
   * Whether a line holds `name`, by a binary search over the bytes (lines ascending, as the writer lists them): each
   * step reads the line holding the middle byte of what is left. False may also mean the lines do not ascend.
   */
  contains(name: string): boolean {
    const bytes = this.bytes;
    const lineStart = (at: number) => (at === 0 ? 0 : bytes.lastIndexOf(10, at - 1) + 1);
    // the first byte whose line is not less than `name`: the start of that line (every byte of a line has its line's answer)
    const at = firstAfter(0, bytes.length, (byte) => this.lineAt(lineStart(byte)) < name);
    return at < bytes.length && this.lineAt(at) === name;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A name as a line of the names file: a backslash, line feed or carriage return escaped with a backslash. */
export function escapeName(name: string): string {
  return name.replace(/[\\\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : '\\r'));
}

/** A line of the names file as the name it holds. */
export function unescapeName(line: string): string {
  return line.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c));
}
