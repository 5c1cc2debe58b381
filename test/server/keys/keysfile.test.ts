// The keys file as `evap keys` edits it, on real files: what is added is listed and accepted by the server's own
// reader, revoking removes exactly the matching lines, concurrent appends lose nothing, a malformed file is refused.
import { createHash } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readKeysFile } from '../../../server/keys/auth.js';
import { addKey, parseKeyEntries, readKeyEntries, readKeysFileProblems, revokeKey } from '../../../server/keys/keysfile.js';
import { tempDir } from '../../helpers.js';

const sha256 = (key: string) => createHash('sha256').update(key).digest('hex');
let count = 0;
const freshPath = async () => join(await dir, `keys-${count++}`);
const dir = tempDir();

// what a label becomes on its line: each run of control characters one space, then trimmed (written out by hand)
function cleanLabel(label: string): string {
  let out = '';
  let inRun = false;
  for (const c of label) {
    const control = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}]/u.test(c); // C0, DEL, C1, line and paragraph separators, lone surrogates
    if (control && !inRun) out += ' ';
    if (!control) out += c;
    inRun = control;
  }
  return out.trim();
}

describe('addKey and readKeyEntries', () => {
  it('appends the digest of a fresh key with the date and label, lists it, and the server accepts it', async () => {
    const path = await freshPath();
    expect(await readKeyEntries(path)).toEqual([]); // no file yet: no keys
    const a = await addKey(path, 'alice', '2026-01-02');
    const b = await addKey(path, 'bob at\tthe\r\nlab');
    expect(a.key).toMatch(/^[0-9a-f]{64}$/);
    expect(a.key).not.toBe(b.key);
    const text = await readFile(path, 'utf8');
    expect(text).toBe(`${sha256(a.key)} # 2026-01-02 alice\n${sha256(b.key)} # ${new Date().toISOString().slice(0, 10)} bob at the lab\n`);
    expect(text).not.toContain(a.key);
    expect(await readKeyEntries(path)).toEqual([a.entry, b.entry]);
    expect(a.entry).toEqual({ id: sha256(a.key).slice(0, 12), created: '2026-01-02', label: 'alice' });
    expect((await readKeysFile(path)).digests.map((d) => d.toString('hex'))).toEqual([sha256(a.key), sha256(b.key)]);
    expect((await stat(path)).mode & 0o777).toBe(0o600); // digests only, but still the operator's alone
  });

  it('lists any labels as written, control characters made spaces', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({
            unit: fc.oneof(fc.constantFrom('\u007f', '\t', '\n', '\r', '\u0000', ' ', '#'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })),
            maxLength: 20,
          }),
          { maxLength: 5 },
        ),
        async (labels) => {
          const path = await freshPath();
          const made = [];
          for (const label of labels) made.push(await addKey(path, label, '2025-12-31'));
          expect(await readKeyEntries(path)).toEqual(
            made.map((m, i) => ({ id: sha256(m.key).slice(0, 12), created: '2025-12-31', label: cleanLabel(labels[i]!) })),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('loses no line to concurrent appends', async () => {
    const path = await freshPath();
    const made = await Promise.all(Array.from({ length: 64 }, (_, i) => addKey(path, `client ${i}`)));
    const digests = (await readKeysFile(path)).digests.map((d) => d.toString('hex')).sort();
    expect(digests).toEqual(made.map((m) => sha256(m.key)).sort());
    expect(new Set(digests).size).toBe(64);
  });

  it('reads lines written by hand: bare digests, any case, comments, blank lines, CRLF', () => {
    const upper = 'AB'.repeat(32);
    const text = `# the lab's keys\r\n\r\n${upper}\r\n  ${'cd'.repeat(32)}   # 2024-05-06   carol  \r\n${'ef'.repeat(32)} # no date\n`;
    expect(parseKeyEntries(text)).toEqual([
      { id: 'ab'.repeat(6), created: '', label: '' },
      { id: 'cd'.repeat(6), created: '2024-05-06', label: 'carol' },
      { id: 'ef'.repeat(6), created: '', label: 'no date' },
    ]);
  });

  it('adds, lists and revokes around a line the server cannot read, which grants nothing and is named', async () => {
    for (const bad of ['not a digest\n', `${'a'.repeat(63)}\n`, `${'a'.repeat(64)}x # label\n`, `${'0'.repeat(64)}\n${'g'.repeat(64)}\n`]) {
      const path = await freshPath();
      await writeFile(path, bad);
      const line = bad.split('\n').findIndex((l) => !/^[0-9a-f]{64}$/.test(l)) + 1;
      expect(await readKeysFileProblems(path)).toEqual([expect.stringContaining(`${path}:${line}: expected a hex SHA-256 digest`)]);
      const good = bad.split('\n').filter((l) => /^[0-9a-f]{64}$/.test(l));
      const made = await addKey(path, 'x');
      expect((await readKeysFile(path)).digests.map((d) => d.toString('hex'))).toEqual([...good, sha256(made.key)]);
      expect(await revokeKey(path, 'x')).toEqual([made.entry]);
      expect(await readFile(path, 'utf8')).toBe(bad); // the bad line stays for the operator to fix: only the key went
    }
    const folder = await freshPath();
    await mkdir(folder);
    await expect(readKeyEntries(folder)).rejects.toThrow(/EISDIR/); // only a missing file counts as empty
  });

  it('keeps a key revocable whatever its label holds (line and paragraph separators, C1 controls, bidi overrides)', async () => {
    const path = await freshPath();
    const hostile = await addKey(path, 'eve\u2028# 2020-01-01 x\u2029\u0085\u009b31m\u202eevil');
    const other = await addKey(path, 'bob');
    expect(await readKeysFileProblems(path)).toEqual([]);
    expect(await readKeyEntries(path)).toEqual([hostile.entry, other.entry]);
    expect(await revokeKey(path, hostile.entry.id)).toEqual([hostile.entry]);
    expect((await readKeysFile(path)).digests.map((d) => d.toString('hex'))).toEqual([sha256(other.key)]);
  });
});

describe('revokeKey', () => {
  it('removes the keys whose id starts with 6 or more given characters, or whose label is the text, and nothing else', async () => {
    const path = await freshPath();
    await writeFile(path, `# header comment\n${'ab'.repeat(32)}\n`);
    const [a, b, c] = [await addKey(path, 'alice'), await addKey(path, 'shared'), await addKey(path, 'shared')];
    expect(await revokeKey(path, a.entry.id.slice(0, 5))).toEqual([]); // too short to be an id
    expect(await revokeKey(path, 'nobody')).toEqual([]);
    expect(await revokeKey(path, a.entry.id.slice(0, 6).toUpperCase())).toEqual([a.entry]);
    expect(await revokeKey(path, 'shared')).toEqual([b.entry, c.entry]);
    expect(await readFile(path, 'utf8')).toBe(`# header comment\n${'ab'.repeat(32)}\n`);
    expect((await readKeysFile(path)).digests.map((d) => d.toString('hex'))).toEqual(['ab'.repeat(32)]);
    expect(await revokeKey(path, 'ab'.repeat(3))).toEqual([{ id: 'ab'.repeat(6), created: '', label: '' }]);
    expect(await readKeyEntries(path)).toEqual([]);
  });

  it('keeps exactly the keys not chosen, whatever the file holds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), async (revoke) => {
        const path = await freshPath();
        const made = await Promise.all(revoke.map((_, i) => addKey(path, `k${i}`)));
        const order = (await readKeyEntries(path)).map((e) => e.label); // appends land in any order
        for (const [i, r] of revoke.entries()) if (r) expect(await revokeKey(path, made[i]!.entry.id)).toEqual([made[i]!.entry]);
        expect((await readKeyEntries(path)).map((e) => e.label)).toEqual(order.filter((label) => !revoke[Number(label.slice(1))]));
      }),
      { numRuns: 30 },
    );
  });

  it('leaves a missing file missing', async () => {
    const path = await freshPath();
    expect(await revokeKey(path, 'anyone')).toEqual([]);
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
  });
});
