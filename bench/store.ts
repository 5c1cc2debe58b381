// The bench store: made once with the project's generator (in a child process, with its progress bar), then reused.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readCurrentManifest } from '../lib/store/history.js';
import { FORMAT_VERSION, type Manifest, manifestFiles, READ_VERSIONS } from '../lib/store/manifest.js';
import { vacuumStore } from '../lib/writer/vacuum.js';
import { createStoreWriter } from '../lib/writer/write.js';

/** The size of a store to make: the full scale of the real catalogue, or a tiny one for the smoke run. */
export interface StoreScale {
  reservoirs: number;
  stations: number;
  start: string;
  end: string;
  stationStart: string;
  stationEnd: string;
}

export const fullScale: StoreScale = {
  reservoirs: 247,
  stations: 60,
  start: '1980-01-01',
  end: '2025-12-31',
  stationStart: '2000-01-01',
  stationEnd: '2025-12-31',
};
/** The scale curve of issue 11: the real catalogue over 46 years, then 5,000 and 44,000 water bodies over recent years. */
export const curveScales: StoreScale[] = [
  fullScale,
  { reservoirs: 5000, stations: 60, start: '2022-01-01', end: '2025-12-31', stationStart: '2022-01-01', stationEnd: '2025-12-31' },
  { reservoirs: 44000, stations: 60, start: '2024-01-01', end: '2025-12-31', stationStart: '2024-01-01', stationEnd: '2025-12-31' },
];

/** Where the bench keeps the store of a scale (the full scale where it always was). */
export function scaleStoreDir(scale: StoreScale): string {
  return scale === fullScale ? defaultStoreDir(false) : join(tmpdir(), `evap-bench-store-${scale.reservoirs}`);
}

export const smokeScale: StoreScale = {
  reservoirs: 4,
  stations: 3,
  start: '2019-01-01',
  end: '2021-12-31',
  stationStart: '2019-01-01',
  stationEnd: '2021-12-31',
};

export function defaultStoreDir(smoke: boolean): string {
  return join(tmpdir(), smoke ? 'evap-bench-store-smoke' : 'evap-bench-store');
}

export interface BenchStore {
  dir: string;
  manifest: Manifest;
  diskBytes: number; // every file under the folder, as allocated on disk
  files: number;
  generatedMs: number; // how long the generator took (recorded when it ran)
  reused: boolean;
}

const INFO = 'bench-info.json'; // beside manifest.json: the scale and the generation time; not part of the store
export const repoRoot = resolve(import.meta.dirname, '..');

/** Runs `node ...args` in the repository's folder; rejects with the end of its stderr when it exits with a failure. */
export function runNode(args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    proc.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2000)));
    proc.on('exit', (code) => (code === 0 ? done() : fail(new Error(`${args.join(' ')} exited with ${code}: ${err}`))));
  });
}

/** Makes the store at `dir` unless one of the same scale is there; refuses a folder that is something else. */
export async function ensureStore(dir: string, scale: StoreScale, log: (line: string) => void): Promise<BenchStore> {
  let info = await readInfo(dir);
  const reused =
    info !== undefined &&
    READ_VERSIONS.includes(info.format ?? 0) &&
    JSON.stringify(info.scale) === JSON.stringify(scale) &&
    existsSync(join(dir, 'manifest.json'));
  if (!reused) {
    if (info !== undefined)
      await rm(dir, { recursive: true, force: true }); // the bench's own store, of another scale or format
    else if (existsSync(join(dir, 'manifest.json'))) {
      throw new Error(`${dir} holds a store that the bench did not make at this scale; remove it or pass --store with another folder`);
    }
    await clearLeftovers(dir);
    log(
      `generating the bench store in ${dir} (${scale.reservoirs} reservoirs ${scale.start}..${scale.end}, ${scale.stations} stations ${scale.stationStart}..${scale.stationEnd})`,
    );
    const began = performance.now();
    await generate(dir, scale);
    info = { scale, format: FORMAT_VERSION, generatedMs: performance.now() - began };
    await writeFile(join(dir, INFO), `${JSON.stringify(info, null, 2)}\n`);
  }
  let manifest = (await readCurrentManifest(dir))!;
  if (manifest.version < FORMAT_VERSION) {
    // a store of a format before, read as it is by the library: a snapshot in today's format (its next commit would
    // write it anyway; format 4 makes the date-major copy's months), so the queries measure what a store written now
    // reads; the files only the snapshot before named go, so DuckDB's globs read this snapshot's
    log(`publishing ${dir} again in store format ${FORMAT_VERSION} (it was written in format ${manifest.version})`);
    manifest = await createStoreWriter(dir, { base: manifest }).commit();
    await vacuumStore(dir, { minAgeMs: 0 });
    info = { ...info!, format: FORMAT_VERSION };
    await writeFile(join(dir, INFO), `${JSON.stringify(info, null, 2)}\n`);
  }
  const { bytes, parquet } = await diskUsage(dir);
  const named = manifestFiles(manifest).filter((f) => f.path.endsWith('.parquet')).length; // not the files' indexes
  if (parquet !== named) {
    throw new Error(`${dir} holds ${parquet} Parquet files but its manifest names ${named}: DuckDB's globs would read other snapshots; remove the folder`);
  }
  return { dir, manifest, diskBytes: bytes, files: parquet, generatedMs: info!.generatedMs, reused };
}

async function readInfo(dir: string): Promise<{ scale: StoreScale; format?: number; generatedMs: number } | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, INFO), 'utf8')) as { scale: StoreScale; format?: number; generatedMs: number };
  } catch {
    return undefined;
  }
}

// An interrupted generation leaves partition folders without a manifest: remove them, and nothing else.
async function clearLeftovers(dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  const entries = await readdir(dir);
  const ours = new Set(['reservoirs', 'stations', 'snapshots', 'writing', 'readers', 'tables', INFO]);
  if (entries.some((e) => !ours.has(e))) throw new Error(`${dir} is not empty and is not a bench store; pass --store with another folder`);
  for (const e of entries) await rm(join(dir, e), { recursive: true, force: true });
}

function generate(dir: string, scale: StoreScale): Promise<void> {
  const args = [
    '--import',
    'tsx',
    join(repoRoot, 'cli', 'evap.ts'),
    'generate',
    '--out',
    dir,
    '--reservoirs',
    String(scale.reservoirs),
    '--stations',
    String(scale.stations),
    '--start',
    scale.start,
    '--end',
    scale.end,
    '--station-start',
    scale.stationStart,
    '--station-end',
    scale.stationEnd,
    '--workers', // the same rows as one thread's, on every core
    String(availableParallelism()),
  ];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`the generator exited with code ${code}`))));
  });
}

async function diskUsage(dir: string): Promise<{ bytes: number; parquet: number }> {
  let bytes = 0;
  let parquet = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const s = await stat(join(entry.parentPath, entry.name));
    bytes += s.blocks * 512;
    if (entry.name.endsWith('.parquet')) parquet++;
  }
  return { bytes, parquet };
}
