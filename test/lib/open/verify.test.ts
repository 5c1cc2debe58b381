// A whole-store check on a real store, against the folder itself: file sizes from stat, SHA-256 from node:crypto, and
// damage done by hand (a flipped byte, a file cut short or grown, a missing file, a corrupt chunk the manifest agrees with).
import { createHash } from 'node:crypto';
import { appendFile, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { verifyStore } from '../../../lib/open/verify.js';
import { tempDir, writeTinyStore } from '../../helpers.js';

async function tinyStore() {
  const dir = await tempDir();
  await writeTinyStore(dir);
  // data files, their indexes and the file of the reservoirs' names
  const parquet = (await readdir(dir, { recursive: true }))
    .filter((p) => p.endsWith('.parquet') || p.endsWith('.index.json') || p.startsWith('reservoirs/names/'))
    .sort();
  return { dir, parquet };
}

describe('verifyStore', () => {
  it('reads every file of a whole store once: as many files and bytes as the folder holds, no problem', async () => {
    const { dir, parquet } = await tinyStore();
    const store = await openStore(dir);
    const progress: [number, number][] = [];
    const summary = await verifyStore(store, store.storage, (done, total) => progress.push([done, total]));
    let bytes = 0;
    for (const p of parquet) bytes += (await stat(join(dir, p))).size;
    expect(summary).toEqual({ files: parquet.length, bytes, problems: [] });
    expect(progress).toEqual(parquet.map((_, i) => [i + 1, parquet.length]));
  });

  it('names each damaged file: a flipped byte, a file cut short, one grown, one missing', async () => {
    const { dir, parquet } = await tinyStore();
    const store = await openStore(dir);
    // the station's data file is missing: the store read the metadata files when it opened, and holds them open
    const data = parquet.filter((p) => p.endsWith('.parquet'));
    const [flipped, cut, grown, missing] = [data[0], data[1], data[2], data.find((p) => p.startsWith('stations/station='))];
    const bytes = await readFile(join(dir, flipped!));
    bytes[10]! ^= 1;
    await writeFile(join(dir, flipped!), bytes);
    const cutSize = (await stat(join(dir, cut!))).size;
    await truncate(join(dir, cut!), cutSize - 1);
    const grownSize = (await stat(join(dir, grown!))).size;
    await appendFile(join(dir, grown!), 'x');
    await rm(join(dir, missing!));
    const summary = await verifyStore(store, store.storage);
    expect(summary.files).toBe(parquet.length);
    expect(summary.problems).toHaveLength(4);
    const about = (path: string) => summary.problems.filter((p) => p.includes(path));
    expect(about(flipped!)).toEqual([expect.stringMatching(/corrupt: checksum does not match the manifest/)]);
    expect(about(cut!)).toEqual([expect.stringContaining(`has ${cutSize - 1} bytes, the manifest says ${cutSize}`)]);
    expect(about(grown!)).toEqual([expect.stringContaining(`has ${grownSize + 1} bytes, the manifest says ${grownSize}`)]);
    expect(about(missing!)).toHaveLength(1);
  });

  it("checks every column chunk against the footer's checksums, even when the manifest was rewritten to match the damage", async () => {
    const { dir } = await tinyStore();
    const before = await openStore(dir);
    const file = before.manifest.datasets['nete-volume-calcs']!.partitions[0]!.files[0]!;
    const bytes = await readFile(join(dir, file.path));
    bytes[8]! ^= 0xff; // inside the first column chunk, far from the footer
    await writeFile(join(dir, file.path), bytes);
    const manifest = await readFile(join(dir, 'manifest.json'), 'utf8');
    await writeFile(join(dir, 'manifest.json'), manifest.replace(file.sha256, createHash('sha256').update(bytes).digest('hex')));
    const store = await openStore(dir);
    const summary = await verifyStore(store, store.storage);
    expect(summary.problems).toHaveLength(1);
    expect(summary.problems[0]).toContain(file.path);
  });
});
