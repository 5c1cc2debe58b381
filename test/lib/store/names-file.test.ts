// The reservoirs' names in a file of their own (store format 3): the file round-trips any name, its lines are searched
// as the list is, a store names it in its manifest (not the names), reuses it while the names stay, and a store of the
// format before (names in the manifest) is read as it is and written in the new format by its next commit.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { StoreError } from '../../../lib/errors.js';
import { openStore } from '../../../lib/open/store.js';
import { readCurrentManifest } from '../../../lib/store/history.js';
import { type Manifest, manifestFiles } from '../../../lib/store/manifest.js';
import { NameIndex, NameLines } from '../../../lib/store/name-index.js';
import { decodeNames, encodeNames } from '../../../lib/store/names-file.js';
import { vacuumStore } from '../../../lib/writer/vacuum.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { daysFrom, tempDir, tinyReservoirs, writeTinyStore } from '../../helpers.js';

// names with what the file escapes (a backslash, line breaks), letters that sort apart in code units, and the empty name
const name = fc.string({ unit: fc.constantFrom('a', 'B', '\\', '\n', '\r', 'n', 'é', '😀', ' '), maxLength: 5 });

describe('the names file', () => {
  it('gives back every list of names as written, and each line as its name', () => {
    fc.assert(
      fc.property(fc.array(name, { maxLength: 40 }), (names) => {
        const bytes = encodeNames(names);
        expect(decodeNames(bytes)).toEqual(names);
        const lines = new NameLines(bytes, names.length);
        expect(lines.starts.length).toBe(names.length + 1); // scanned: a line a name
        names.forEach((n, i) => expect(lines.line(i)).toBe(n));
        // a count other than the manifest's is refused when the lines are first scanned
        expect(() => new NameLines(bytes, names.length + 1).starts).toThrow(StoreError);
        if (names.length > 0) expect(() => new NameLines(bytes, names.length - 1).starts).toThrow(StoreError);
        expect(() => new NameLines(bytes, names.length + 2, 'reservoirs/names/part-x.txt').starts).toThrow(
          `store file reservoirs/names/part-x.txt holds ${names.length} names, its manifest says ${names.length + 2}`,
        );
        // one line a name: as many line feeds as names, whatever the names hold
        expect(bytes.filter((b) => b === 10).length).toBe(names.length);
      }),
    );
  });

  it('is searched as a Map of the list answers: exactly for a list the writer makes, a place holding the name otherwise', () => {
    const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    fc.assert(
      fc.property(fc.array(name, { maxLength: 60 }), fc.boolean(), fc.array(name, { maxLength: 80 }), (given, sort, probes) => {
        const names = sort ? [...new Set(given)].sort(byCodeUnits) : given;
        const index = new NameIndex({ names }, new NameLines(encodeNames(names), names.length));
        const last = new Map(names.map((n, i) => [n, i]));
        // membership first, on an index that has made nothing yet (the search over the file's bytes), then positions
        const fresh = new NameIndex({ names }, new NameLines(encodeNames(names), names.length));
        const lines = new NameLines(encodeNames(names), names.length);
        for (const probe of [...probes, ...names]) {
          expect(fresh.has(probe)).toBe(last.has(probe));
          if (sort) expect(lines.contains(probe)).toBe(last.has(probe)); // exactly, over the lines a writer makes
        }
        expect(lines.indexed).toBe(false);
        for (const probe of [...probes, ...names]) {
          const at = index.get(probe);
          if (sort) expect(at).toBe(last.get(probe));
          else if (last.has(probe)) expect(names[at!]).toBe(probe);
          else expect(at).toBeUndefined();
        }
      }),
    );
  });

  it('is searched line by line for a few names only: every name asked is one Map made, not a search each', () => {
    const names = Array.from({ length: 2000 }, (_, i) => `RESERVOIR ${String(i).padStart(5, '0')}`);
    const lines = new NameLines(encodeNames(names), names.length);
    const index = new NameIndex({ names }, lines);
    const read = vi.spyOn(lines, 'lineAt');
    for (const n of names) expect(index.has(n)).toBe(true);
    expect(index.has('RESERVOIR 99999')).toBe(false);
    expect(read.mock.calls.length).toBeLessThan(names.length); // a search each is about 20 lines read a name
  });

  it('is what a store names instead of its names, kept while the names stay, checked against its checksum', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const raw = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest & { reservoirs: { names?: string[] } };
    expect(raw.version).toBe(4);
    expect(raw.reservoirs.names).toBeUndefined();
    const entry = raw.reservoirs.namesFile!;
    const expected = tinyReservoirs.map((r) => r.RES_NAME as string).sort();
    expect(await readFile(join(dir, entry.path), 'utf8')).toBe(expected.map((n) => `${n}\n`).join(''));
    expect(entry).toMatchObject({ rows: expected.length, bytes: Buffer.byteLength(expected.map((n) => `${n}\n`).join('')) });

    // a commit of values alone names the same file; a vacuum keeps it, and the store reads the same names
    const writer = createStoreWriter(dir, { base: await readCurrentManifest(dir) });
    await writer.writeReservoirPartition('nete-volume-calcs', 2021, {
      names: ['ALPHA LAKE'],
      days: daysFrom('2021-01-01', 1),
      values: { NetE: Float64Array.of(9) },
    });
    const next = await writer.commit();
    expect(next.reservoirs.namesFile).toEqual(entry);
    await vacuumStore(dir, { minAgeMs: 0, retainMs: 0 });
    const store = await openStore(dir);
    expect(store.manifest.reservoirs.names).toEqual(expected);
    expect((await store.reservoirTimeseries({ names: ['ALPHA LAKE'], variables: ['NetE'], start: '2021-01-01', end: '2021-01-01' }))[0]).toMatchObject({
      'NetE (mm)': 9,
    });
    await store.close();

    // a manifest whose checksum the file does not have (a file damaged before any read of this process; once read and
    // checked, its bytes are kept by their checksum)
    const manifestText = await readFile(join(dir, 'manifest.json'), 'utf8');
    await writeFile(join(dir, 'manifest.json'), manifestText.replace(entry.sha256, createHash('sha256').update('other').digest('hex')));
    await expect(openStore(dir)).rejects.toThrow(StoreError);
    await expect(openStore(dir)).rejects.toThrow(`store file ${entry.path} is corrupt`);
  });

  it('is not needed to read a store of the format before, which its next commit writes in the format of now', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const now = await openStore(dir);
    const answer = await now.reservoirTimeseries({ names: ['BETA RESERVOIR'], variables: ['NetE'], start: '2020-12-30', end: '2021-01-02' });
    const names = now.manifest.reservoirs.names;
    await now.close();
    // the manifest as format 2 wrote it: the names listed in it, no names file
    const raw = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    const old = { ...raw, version: 2, reservoirs: { names, metadata: raw.reservoirs.metadata } };
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(old));
    await writeFile(join(dir, 'snapshots', `${String(raw.sequence).padStart(10, '0')}.json`), JSON.stringify(old));

    const before = await openStore(dir);
    expect(before.manifest.version).toBe(2);
    expect(manifestFiles(before.manifest).some((f) => f.path.startsWith('reservoirs/names/'))).toBe(false);
    expect(await before.reservoirTimeseries({ names: ['BETA RESERVOIR'], variables: ['NetE'], start: '2020-12-30', end: '2021-01-02' })).toEqual(answer);
    await before.close();

    const upgraded = await createStoreWriter(dir, { base: await readCurrentManifest(dir) }).commit();
    expect(upgraded.version).toBe(4);
    expect(upgraded.reservoirs.namesFile?.path).toMatch(/^reservoirs\/names\/part-.+\.txt$/);
    const after = await openStore(dir);
    expect(after.manifest.reservoirs.names).toEqual(names);
    expect(await after.reservoirTimeseries({ names: ['BETA RESERVOIR'], variables: ['NetE'], start: '2020-12-30', end: '2021-01-02' })).toEqual(answer);
    await after.close();
  });
});
