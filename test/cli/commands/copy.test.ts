// evap copy between folders: the copy is byte for byte the source's snapshot and answers the same; an interrupted copy
// resumes keeping the files already there and whole, and copies a damaged one again.
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { copySmallStore, smallStoreAnswers, tempDir } from '../../helpers.js';
import { evap } from '../harness.js';

let sourceDir: string;
let source: EvapStore;
let files: string[]; // the source's data files, found by listing its folder
// data files, their indexes and the file of the reservoirs' names
const storeFile = (f: string) => f.endsWith('.parquet') || f.endsWith('.index.json') || f.startsWith('reservoirs/names/');

beforeAll(async () => {
  sourceDir = join(await tempDir(), 'source');
  await copySmallStore(sourceDir);
  source = await openStore(sourceDir);
  files = (await readdir(sourceDir, { recursive: true })).filter(storeFile).sort();
});

async function expectSameStore(dir: string): Promise<void> {
  expect((await readdir(dir, { recursive: true })).filter(storeFile).sort()).toEqual(files);
  for (const f of files) expect(Buffer.compare(await readFile(join(dir, f)), await readFile(join(sourceDir, f))), f).toBe(0);
  const copy = await openStore(dir);
  expect(copy.manifest.snapshot).toBe(source.manifest.snapshot);
  expect(await smallStoreAnswers(dir, source.manifest.reservoirs.names)).toEqual(await smallStoreAnswers(sourceDir, source.manifest.reservoirs.names));
  await copy.close();
}

describe('evap copy', () => {
  it('copies every file of the snapshot and publishes it, keeps files already there and whole, and asks for what is missing', async () => {
    const fresh = join(await tempDir(), 'fresh');
    const resumed = join(await tempDir(), 'resumed');
    // what an interrupted copy leaves: some files, no manifest; one of them damaged at the same size
    const [damaged, ...whole] = files.slice(0, 3);
    for (const f of [damaged!, ...whole]) {
      await mkdir(dirname(join(resumed, f)), { recursive: true });
      await cp(join(sourceDir, f), join(resumed, f));
    }
    const bytes = await readFile(join(resumed, damaged!));
    bytes[bytes.length - 20]! ^= 0xff;
    await writeFile(join(resumed, damaged!), bytes);

    const [first, second, missing] = await Promise.all([
      evap(['copy', '--from', sourceDir, '--to', fresh]),
      evap(['copy', '--from', sourceDir, '--to', resumed, '--concurrency', '2']),
      evap(['copy', '--from', sourceDir]),
    ]);
    const snapshot = source.manifest.snapshot;
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      new RegExp(`^${fresh} serves snapshot ${snapshot}: ${files.length} files, ${files.length} copied \\([\\d.]+ MiB\\), 0 already there and whole`),
    );
    await expectSameStore(fresh);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`${files.length} files, ${files.length - 2} copied`);
    expect(second.stdout).toContain(', 2 already there and whole');
    await expectSameStore(resumed);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('evap copy: --to is required');

    const again = await evap(['copy', '--from', sourceDir, '--to', fresh]);
    expect(again.stdout).toContain(`${files.length} files, 0 copied (0.0 MiB), ${files.length} already there and whole`);
  });
});
