// evap ingest: a summary of what it applied, bad rows named by file and line, and a store left whole when killed at any point.
import { cp, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../../lib/format/csv.js';
import type { WireRecord } from '../../../lib/types.js';
import { openSmallStore, smallStoreAnswers, smallStoreRange, tempDir } from '../../helpers.js';
import { evap, evapProcess } from '../harness.js';

const { dir: sourceDir, store: source, names } = await openSmallStore({ copy: true });
const answers = (dir: string) => smallStoreAnswers(dir, names);

describe('evap ingest', () => {
  it('ingests files and prints the summary; reports bad rows with file and line and exits 1', async () => {
    const dir = await tempDir();
    const csv = join(dir, 'revision.csv');
    const records = await source.reservoirTimeseries({ names, ...smallStoreRange, datasets: ['nete-volume-calcs'], units: 'english' });
    await writeFile(csv, recordsToCsv(records, Object.keys(records[0]!)));
    const metadata = join(dir, 'metadata.json');
    await writeFile(metadata, JSON.stringify(source.reservoirMetadata(names)));
    const store = join(dir, 'store');
    const ok = await evap(['ingest', csv, metadata, '--store', store]);
    expect(ok.stderr).not.toMatch(/:\d+: /);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(
      new RegExp(`2/2 files applied, ${records.length + names.length} records(?: \\(\\d+/s\\))?, rows added ${records.length * 1}, replaced 0, rejected 0`),
    );
    const bad = join(dir, 'bad.csv');
    await writeFile(bad, `RES_NAME,start_date,end_date,NetE (mm)\n${names[0]},2021-01-01,2021-01-01,abc\n`);
    const failed = await evap(['ingest', bad, '--store', store]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`${bad}:2: non-numeric value "abc" in column "NetE (mm)"`);
    expect(failed.stdout).toMatch(/nothing published: 0\/1 files applied/);
    // one record: singular, and no rate from a run too short to measure one ("1 records (0/s)" before)
    const one = join(dir, 'one.csv');
    await writeFile(one, recordsToCsv(records.slice(0, 1), Object.keys(records[0]!)));
    const single = await evap(['ingest', one, '--store', store]);
    expect(single.code).toBe(0);
    expect(single.stdout).toMatch(/1\/1 files applied, 1 record, rows added/);
    expect(single.stdout).not.toMatch(/\(0\/s\)/);
  });

  it('leaves the old snapshot whole when killed at any point, and a later ingest succeeds', async () => {
    const dir = join(await tempDir(), 'store');
    await cp(sourceDir, dir, { recursive: true });
    const old = await answers(dir);
    // a revision of every value of every reservoir and station
    const files = join(await tempDir(), 'revision');
    const shift = (records: WireRecord[]) => records.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? v + 1 : v])));
    const reservoirs = shift(await source.reservoirTimeseries({ names, ...smallStoreRange }));
    const stations = shift(await source.stationTimeseries({ names: source.manifest.stations.names, ...smallStoreRange }));
    await writeFile(`${files}-reservoirs.csv`, recordsToCsv(reservoirs, Object.keys(reservoirs[0]!)));
    await writeFile(`${files}-stations.json`, JSON.stringify(stations));
    const args = ['ingest', `${files}-reservoirs.csv`, `${files}-stations.json`, '--store', dir];
    const partFiles = async () => (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.parquet')).length;
    const before = await partFiles();
    const kills = [
      { when: async () => (await partFiles()) > before }, // just after the first new partition file appears
      { when: async () => (await partFiles()) > before + 3 },
      ...[0, 1].map(() => ({ afterMs: Math.round(Math.random() * 2500) })), // anywhere, start-up included
    ];
    let killedMidway = 0;
    for (const kill of kills) {
      const run = await evapProcess(args, {}, kill); // a real process, killed
      const now = await answers(dir); // opens and reads every partition, verifying checksums
      if (run.signal === 'SIGKILL' && JSON.stringify(now) === JSON.stringify(old)) killedMidway++;
      if (JSON.stringify(now) !== JSON.stringify(old)) break; // that run committed before the kill
    }
    expect(killedMidway).toBeGreaterThanOrEqual(2);
    const finished = await evap(args);
    expect(finished.code, finished.stderr).toBe(0);
    const now = await answers(dir);
    expect(now).not.toEqual(old);
    expect(now).toEqual(await answers(await revisedCopy(reservoirs, stations)));
  });
});

/** The store that a completed revision should give, made in-process. */
async function revisedCopy(reservoirs: WireRecord[], stations: WireRecord[]): Promise<string> {
  const { ingest, textSource } = await import('../../../lib/ingest/ingest.js');
  const dir = join(await tempDir(), 'expected');
  await cp(sourceDir, dir, { recursive: true });
  await ingest(dir, [textSource('r.csv', recordsToCsv(reservoirs, Object.keys(reservoirs[0]!))), textSource('s.json', JSON.stringify(stations))]);
  return dir;
}
