// KeyRing: keys kept as digests, printable ASCII only, 401 for a missing or wrong key, the digest (never the key) returned.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../../server/errors.js';
import { KeyRing, parseKeyList, parseKeysFile } from '../../../server/keys/auth.js';

// node:crypto as it is, its createHash watched: a key is hashed once per check
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return { ...real, createHash: vi.fn(real.createHash) };
});

const request = (key?: string) => new Request('http://x/', key === undefined ? {} : { headers: { 'api-key': key } });

describe('KeyRing', () => {
  it('accepts exactly the keys it was given', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[\x20-\x7e]{1,20}$/), { minLength: 2 }), (keys) => {
        const ring = KeyRing.fromKeys(keys.slice(1));
        expect(ring.accepts(keys[0]!)).toBe(false);
        for (const key of keys.slice(1)) expect(ring.accepts(key)).toBe(true);
      }),
    );
  });

  it('refuses a missing, empty or wrong key with a 401 and returns the SHA-256 hex digest of a good one', () => {
    const ring = KeyRing.fromKeys(['good-key']);
    for (const key of [undefined, '', 'bad-key']) expect(() => ring.check(request(key))).toThrow(HttpError);
    expect(() => ring.check(request())).toThrow(/missing API key/);
    expect(ring.check(request('good-key'))).toBe(createHash('sha256').update('good-key').digest('hex'));
  });

  it('hashes a presented key once per check and returns the digest it checked', async () => {
    const sha256 = async (key: string) => Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key))).toString('hex'); // WebCrypto, not node:crypto's createHash
    await fc.assert(
      // no space at either end: a header value loses those
      fc.asyncProperty(fc.uniqueArray(fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,18}[\x21-\x7e])?$/), { minLength: 2, maxLength: 5 }), async (keys) => {
        const ring = KeyRing.fromKeys(keys.slice(1));
        for (const key of keys) {
          vi.mocked(createHash).mockClear();
          if (key === keys[0]) expect(() => ring.check(request(key))).toThrow(/invalid API key/);
          else expect(ring.check(request(key))).toBe(await sha256(key));
          expect(vi.mocked(createHash)).toHaveBeenCalledTimes(1);
        }
      }),
    );
  });

  it('refuses a key with bytes outside printable ASCII, even one configured', () => {
    expect(KeyRing.fromKeys(['clé']).accepts('clé')).toBe(false);
  });

  it('accepts only the new keys after replace', () => {
    const ring = KeyRing.fromKeys(['old']);
    ring.replace(KeyRing.fromKeys(['new']).digestList());
    expect([ring.accepts('old'), ring.accepts('new'), ring.size]).toEqual([false, true, 1]);
  });
});

describe('parseKeyList', () => {
  it('splits on commas and trims', () => {
    expect(parseKeyList(' a , b,,c ')).toEqual(['a', 'b', 'c']);
    expect(parseKeyList(undefined)).toEqual([]);
    expect(() => parseKeyList('a,clé')).toThrow(/key 2 has a character outside printable ASCII/);
  });
});

describe('parseKeysFile', () => {
  it('reads one hex digest a line, skipping comments and blanks, and names the bad line', () => {
    const digest = createHash('sha256').update('k').digest('hex');
    expect(parseKeysFile(`# keys\n\n${digest.toUpperCase()}  # ops\r\n`)).toEqual({ digests: [Buffer.from(digest, 'hex')], problems: [] });
    expect(parseKeysFile(`${digest}\nnot-a-digest\n`, 'keys.txt')).toEqual({
      digests: [Buffer.from(digest, 'hex')], // the bad line grants nothing; the others still count
      problems: [expect.stringMatching(/^keys.txt:2: expected a hex SHA-256 digest/)],
    });
  });

  it('reads a digest whatever its comment holds, line and paragraph separators included', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 64, maxLength: 64 }),
            fc.string({ unit: fc.constantFrom('a', ' ', '#', '\u2028', '\u2029', '\u0085', '\u202e', 'é') }),
          ),
        ),
        (lines) => {
          const text = lines.map(([digest, comment]) => `${digest} # ${comment}`).join('\n');
          expect(parseKeysFile(text)).toEqual({ digests: lines.map(([digest]) => Buffer.from(digest, 'hex')), problems: [] });
        },
      ),
    );
  });
});
