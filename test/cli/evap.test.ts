import { spawn } from 'node:child_process';
import { cp, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../lib/format/csv.js';
import { openStore, type EvapStore } from '../../lib/store/store.js';
import type { WireRecord } from '../../lib/types.js';
import { tempDir, writeSmallStore } from '../helpers.js';
import { startTestServer } from '../server/harness.js';

const root = resolve(import.meta.dirname, '../..');
const range = { start: '2020-12-25', end: '2021-01-05' };

/** Runs `evap ...` as a child process (through tsx); resolves with its exit and output. */
function evap(args: string[], options: { killAfterMs?: number; killWhen?: () => Promise<boolean> } = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/evap.ts', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  if (options.killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), options.killAfterMs);
  if (options.killWhen) {
    const poll = async () => {
      if (child.exitCode !== null) return;
      if (await options.killWhen!()) child.kill('SIGKILL');
      else setTimeout(poll, 1);
    };
    void poll();
  }
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((done) =>
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr })),
  );
}

let sourceDir: string;
let source: EvapStore;
let names: string[];

beforeAll(async () => {
  sourceDir = await tempDir();
  await writeSmallStore(sourceDir);
  source = await openStore(sourceDir);
  names = source.manifest.reservoirs.names;
});

async function answers(dir: string): Promise<WireRecord[]> {
  const store = await openStore(dir);
  return [...(await store.reservoirTimeseries({ names, ...range })), ...(await store.stationTimeseries({ names: store.manifest.stations.names, ...range }))];
}

describe('evap ingest', () => {
  it('ingests files and prints the summary; reports bad rows with file and line and exits 1', async () => {
    const dir = await tempDir();
    const csv = join(dir, 'revision.csv');
    const records = await source.reservoirTimeseries({ names, ...range, datasets: ['nete-volume-calcs'], units: 'english' });
    await writeFile(csv, recordsToCsv(records, Object.keys(records[0]!)));
    const metadata = join(dir, 'metadata.json');
    await writeFile(metadata, JSON.stringify(source.reservoirMetadata(names)));
    const store = join(dir, 'store');
    const ok = await evap(['ingest', csv, metadata, '--store', store]);
    expect(ok.stderr).not.toMatch(/:\d+: /);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(new RegExp(`2/2 files applied, ${records.length + names.length} records .* rows added ${records.length * 1}, replaced 0, rejected 0`));
    const bad = join(dir, 'bad.csv');
    await writeFile(bad, `RES_NAME,start_date,end_date,NetE (mm)\n${names[0]},2021-01-01,2021-01-01,abc\n`);
    const failed = await evap(['ingest', bad, '--store', store]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`${bad}:2: non-numeric value "abc" in column "NetE (mm)"`);
    expect(failed.stdout).toMatch(/nothing published: 0\/1 files applied/);
  });

  it('leaves the old snapshot whole when killed at any point, and a later ingest succeeds', async () => {
    const dir = join(await tempDir(), 'store');
    await cp(sourceDir, dir, { recursive: true });
    const old = await answers(dir);
    // a revision of every value of every reservoir and station
    const files = join(await tempDir(), 'revision');
    const shift = (records: WireRecord[]) => records.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? v + 1 : v])));
    const reservoirs = shift(await source.reservoirTimeseries({ names, ...range }));
    const stations = shift(await source.stationTimeseries({ names: source.manifest.stations.names, ...range }));
    await writeFile(`${files}-reservoirs.csv`, recordsToCsv(reservoirs, Object.keys(reservoirs[0]!)));
    await writeFile(`${files}-stations.json`, JSON.stringify(stations));
    const args = ['ingest', `${files}-reservoirs.csv`, `${files}-stations.json`, '--store', dir];
    const partFiles = async () => (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.parquet')).length;
    const before = await partFiles();
    const kills = [
      { killWhen: async () => (await partFiles()) > before }, // just after the first new partition file appears
      { killWhen: async () => (await partFiles()) > before + 3 },
      ...[0, 1].map(() => ({ killAfterMs: Math.round(Math.random() * 2500) })), // anywhere, start-up included
    ];
    let killedMidway = 0;
    for (const kill of kills) {
      const run = await evap(args, kill);
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
  const { ingest, textSource } = await import('../../lib/ingest/ingest.js');
  const dir = join(await tempDir(), 'expected');
  await cp(sourceDir, dir, { recursive: true });
  await ingest(dir, [textSource('r.csv', recordsToCsv(reservoirs, Object.keys(reservoirs[0]!))), textSource('s.json', JSON.stringify(stations))]);
  return dir;
}

describe('evap mirror', () => {
  it('copies a loopback server, resuming after being killed', async () => {
    const server = await startTestServer({ store: source });
    const dir = join(await tempDir(), 'mirror');
    const progress = join(dir, 'mirror-progress.json');
    const args = ['mirror', '--from', server.url, '--api-key', server.key, '--store', dir, '--concurrency', '2'];
    const { readFile } = await import('node:fs/promises');
    const killed = await evap(args, {
      killWhen: async () => (await readFile(progress, 'utf8').catch(() => '')).includes('reservoirs/'),
    });
    expect(killed.signal).toBe('SIGKILL');
    const resumed = await evap(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/units already done by an interrupted run/);
    expect(await answers(dir)).toEqual(await answers(sourceDir));
    const copy = await openStore(dir);
    expect(copy.reservoirMetadata(names)).toEqual(source.reservoirMetadata(names));
  });
});

describe('evap verify', () => {
  it('passes a whole store and names each damaged file of a damaged one', async () => {
    const dir = join(await tempDir(), 'verify');
    await cp(sourceDir, dir, { recursive: true });
    const whole = await evap(['verify', '--store', dir]);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout).toMatch(/every file is whole/);
    const { readFile } = await import('node:fs/promises');
    const victim = source.manifest.stations.partitions[source.manifest.stations.names[0]!]!.path;
    const bytes = await readFile(join(dir, victim));
    bytes[8]! ^= 0x01;
    await writeFile(join(dir, victim), bytes);
    const damaged = await evap(['verify', '--store', dir]);
    expect(damaged.code).toBe(1);
    expect(damaged.stdout).toContain(`store file ${victim} is corrupt`);
    expect(damaged.stdout).toMatch(/1 files damaged/);
  });
});
