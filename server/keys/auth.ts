// API keys: configured ones kept only as SHA-256 digests, checked in constant time; never logged or echoed.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { HttpError } from '../errors.js';

/** The header that carries the key, as on the public service. */
export const keyHeader = 'api-key';

// Keys are printable ASCII: a header's other bytes reach the server as Latin-1, so a key 'clé' matched its Latin-1
// bytes and never its UTF-8 ones; now no encoding of a non-ASCII key is accepted, and none can be configured.
const printable = /^[\x20-\x7e]+$/;

/** Accepted keys whose digests a ring keeps at hand (only accepted ones: unknown keys cannot fill it). */
const MEMO_KEYS = 64;

/** The accepted keys, as SHA-256 digests. */
export class KeyRing {
  private digests: Buffer[];
  // the digests of keys recently accepted, so that a client sending its key with every request is not hashed every
  // time (SHA-256 was a few per cent of a cached answer); only a cache of the hash, holding keys requests carried
  // anyway: each request is still compared with the digests accepted now, so a revoked key is refused at once
  private readonly hashed = new Map<string, { digest: Buffer; hex: string }>();

  constructor(digests: readonly Buffer[]) {
    this.digests = [...digests];
  }

  /** Accepts these digests from now on, and no others (a reloaded keys file: revoking a key needs no restart). */
  replace(digests: readonly Buffer[]): void {
    this.digests = [...digests];
    this.hashed.clear();
  }

  /** A ring accepting the given plain keys. */
  static fromKeys(keys: readonly string[]): KeyRing {
    return new KeyRing(keys.map(digestKey));
  }

  get size(): number {
    return this.digests.length;
  }

  /** A copy of the digests (to merge rings). */
  digestList(): Buffer[] {
    return [...this.digests];
  }

  /** Whether a presented key matches one of the digests. */
  accepts(key: string | null): boolean {
    return key !== null && printable.test(key) && this.holds(digestKey(key));
  }

  /** Throws 401 unless the request carries an accepted key; returns the key's hex digest (to rate-limit by, never the key). */
  check(request: { readonly headers: { get(name: string): string | null } }): string {
    const key = request.headers.get(keyHeader);
    if (key === null || key === '') throw new HttpError(401, `missing API key: send it in the ${keyHeader} header`);
    const hex = this.acceptedDigest(key);
    if (hex === undefined) throw new HttpError(401, `invalid API key in the ${keyHeader} header`);
    return hex;
  }

  /** Whether these request headers carry an accepted key (check, without the error). */
  admits(headers: { get(name: string): string | null }): boolean {
    const key = headers.get(keyHeader);
    return key !== null && key !== '' && this.acceptedDigest(key) !== undefined;
  }

  // the hex digest of a key if it is accepted now
  private acceptedDigest(key: string): string | undefined {
    const known = this.hashed.get(key);
    if (known) {
      if (this.holds(known.digest)) return known.hex;
      this.hashed.delete(key);
      return undefined;
    }
    // hashed once: the digest that is checked is the one returned
    const digest = printable.test(key) ? digestKey(key) : undefined;
    if (digest === undefined || !this.holds(digest)) return undefined;
    const hex = digest.toString('hex');
    if (this.hashed.size >= MEMO_KEYS) this.hashed.delete(this.hashed.keys().next().value!); // the oldest out: a bound whatever clients send
    this.hashed.set(key, { digest, hex });
    return hex;
  }

  // compares against every digest, in constant time each
  private holds(presented: Buffer): boolean {
    let match = false;
    for (const digest of this.digests) match = timingSafeEqual(presented, digest) || match;
    return match;
  }
}

/** The SHA-256 digest of a key's UTF-8 bytes. */
export function digestKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** A new random key: 32 bytes as 64 hex characters. */
export function generateKey(): string {
  return randomBytes(32).toString('hex');
}

/** Plain keys from a comma-separated list such as EVAP_API_KEYS (spaces trimmed, empties dropped); throws on a non-ASCII key. */
export function parseKeyList(text: string | undefined): string[] {
  const keys = (text ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  keys.forEach((key, i) => {
    if (!printable.test(key)) throw new Error(`EVAP_API_KEYS: key ${i + 1} has a character outside printable ASCII, which an HTTP header cannot carry as such`);
  });
  return keys;
}

/** A keys file as read: the digests of its good lines, and one message per line that is not one. */
interface KeysFile {
  digests: Buffer[];
  problems: string[]; // `path:line: why`; such a line grants no key
}

/**
 * Digests from a keys file: one hex SHA-256 per line, `#` starts a comment, blank lines ignored. A line that is not a
 * digest grants nothing and is named in `problems`: failing closed for that line alone, so that one bad line never
 * keeps the previous keys (a revoked one among them) in force.
 */
export function parseKeysFile(text: string, path = 'keys file'): KeysFile {
  const file: KeysFile = { digests: [], problems: [] };
  text.split(/\r?\n/).forEach((raw, i) => {
    const hash = raw.indexOf('#'); // not a regex: `.` stops at U+2028 and U+2029, which a label may hold
    const line = (hash === -1 ? raw : raw.slice(0, hash)).trim();
    if (line === '') return;
    if (/^[0-9a-fA-F]{64}$/.test(line)) file.digests.push(Buffer.from(line.toLowerCase(), 'hex'));
    else file.problems.push(`${path}:${i + 1}: expected a hex SHA-256 digest (64 characters); the line grants no key`);
  });
  return file;
}

/** Reads a keys file (see parseKeysFile). */
export async function readKeysFile(path: string): Promise<KeysFile> {
  return parseKeysFile(await readFile(path, 'utf8'), path);
}
