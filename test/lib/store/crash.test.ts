// Crash safety: a writer in another process is killed with SIGKILL at random points; the store always opens on the last
// whole snapshot, every file checks out against the manifest, a reader of an older snapshot keeps reading it, and the
// next write succeeds. The Iceberg tables, derived after each commit, are readable by ClickHouse at every kill, at
// most one snapshot behind, and level again after the next write.
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { sha256 } from '../../../lib/store/disk.js';
import { type Manifest, manifestFiles } from '../../../lib/store/manifest.js';
import { writeTinyStore } from '../../helpers.js';
import { scriptArgs } from '../../support/script.js';
import { clickhouseRows, workDir } from '../tables/engine.js';
import { writeGeneration } from './crash-writer.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const kills = 10;

// Every file the manifest names has its recorded size and checksum, and every value belongs to one generation.
async function checkWhole(dir: string, store: EvapStore, manifest: Manifest): Promise<number> {
  for (const file of manifestFiles(manifest)) {
    const bytes = await readFile(join(dir, file.path));
    expect(bytes.byteLength, file.path).toBe(file.bytes);
    expect(sha256(bytes), file.path).toBe(file.sha256);
  }
  const values: number[] = [];
  for (const year of [2020, 2021]) {
    const rows = (await store.readReservoirPartition('nete-volume-calcs', year))!;
    values.push(...rows.values.NetE!, ...rows.values.E_volume!.map((v) => v / 1000));
  }
  values.push(...(await store.readStationPartition('ALPHA_STATION'))!.values.ATemp!);
  expect(new Set(values).size, `values of one snapshot: ${values.join(',')}`).toBe(1);
  return values[0]!;
}

// The one generation each table holds as ClickHouse reads it through its Iceberg metadata.
function tableGenerations(dir: string): number[] {
  const reservoirs = clickhouseRows(dir, 'reservoir_nete_volume_calcs').flatMap((r) => [r.NetE as number, (r.E_volume as number) / 1000]);
  const stations = clickhouseRows(dir, 'station_timeseries').map((r) => r.ATemp as number);
  expect(new Set(reservoirs).size, `values of one snapshot: ${reservoirs.join(',')}`).toBe(1);
  expect(new Set(stations).size, `values of one snapshot: ${stations.join(',')}`).toBe(1);
  return [reservoirs[0]!, stations[0]!];
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'));
}

// Runs the writer from `generation` on, and kills it `delayMs` after it is ready; returns what it committed.
function runAndKill(writer: string[], dir: string, generation: number, delayMs: number): Promise<{ generation: number; snapshot: string }[]> {
  const child = spawn(process.execPath, [...writer, dir, String(generation)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      if (!out.startsWith('ready') && (out += c.toString()).startsWith('ready')) setTimeout(() => child.kill('SIGKILL'), delayMs);
      else out += c.toString();
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer exited with ${code}: ${err}`));
      else
        resolve(
          out
            .split('\n')
            .slice(1)
            .filter((l) => l.includes(' '))
            .map((l) => ({ generation: Number(l.split(' ')[0]), snapshot: l.split(' ')[1]! })),
        );
    });
  });
}

describe('a writer killed with SIGKILL', () => {
  it('leaves the last whole snapshot readable, old readers reading theirs, and the next write working', async () => {
    const writer = await scriptArgs('test/lib/store/crash-writer.ts');
    const dir = `${await workDir()}/store`;
    await writeTinyStore(dir);
    const known = new Set([await writeGeneration(dir, 0)]); // snapshots known to be committed
    let generation = 0;
    let leftBehind = 0;
    let unpublished = 0; // files of snapshots never published (a kill mid-write leaves them; harmless, never read)
    let committed = 0;
    let behind = 0; // kills that came between a commit and its tables
    for (let i = 0; i < kills; i++) {
      // up to a few commits: a kill can come mid-write, between a commit and its tables, or mid-publish
      // a reader opened now (metadata only, no caches) must still read this snapshot after the writer has moved on
      const reader = await openStore(dir, { cacheBytes: 0, footerCacheBytes: 0 });
      const readerManifest = reader.manifest;
      const written = await runAndKill(writer, dir, generation + 1, Math.floor(Math.random() * 600));
      committed += written.length;
      for (const w of written) known.add(w.snapshot);

      const store = await openStore(dir, { cacheBytes: 0, footerCacheBytes: 0 });
      const served = await checkWhole(dir, store, store.manifest);
      // the last snapshot committed, or the one being committed when the kill came between the rename and the report
      const last = written.length > 0 ? written[written.length - 1]!.generation : generation;
      expect([last, last + 1]).toContain(served);
      known.add(store.manifest.snapshot);
      expect(await checkWhole(dir, reader, readerManifest)).toBe(generation);
      for (const g of tableGenerations(dir)) expect([served - 1, served]).toContain(g); // derived after the commit: one behind at most
      if (tableGenerations(dir).some((g) => g !== served)) behind++;
      const orphans = (await listFiles(dir))
        .filter((f) => !f.startsWith('tables/'))
        .filter((f) => f.endsWith('.tmp') || ![...known].some((id) => f.includes(id))).length;
      if (orphans > unpublished) leftBehind++;
      unpublished = orphans;

      generation = served + 1;
      known.add(await writeGeneration(dir, generation)); // the next write succeeds on whatever the kill left
      const after = await openStore(dir, { cacheBytes: 0, footerCacheBytes: 0 });
      expect(await checkWhole(dir, after, after.manifest)).toBe(generation);
      expect(tableGenerations(dir)).toEqual([generation, generation]); // the next commit brings the tables level
    }
    console.log(
      `crash: ${kills} kills, ${committed} snapshots committed by the killed writers, ${leftBehind} kills came mid-write (unpublished files left behind), ${behind} left the tables one snapshot behind`,
    );
  }, 180_000); // each commit also writes the date-major copy and the file indexes: about 100 s on a loaded 2-core machine
});
