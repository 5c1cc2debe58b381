// The demo store: where it is found, and how it is made (the seeded model, about half a minute) when it is not there yet.
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StoreError } from '../errors.js';
import { makeFolderAside, pathExists, readTextFile } from '../store/disk.js';
import { MANIFEST_FILE } from '../store/manifest.js';
import type { GenerateOptions } from './generate.js';

/** The command that makes the demo store, named by every error about it. */
export const DEMO_COMMAND = 'npx evap demo --out DIR';

/**
 * What the demo store holds: the 67 reference reservoirs over 2019-2021 and the 27 stations from 2010 (seed 20240501);
 * forecasts for twelve of the reservoirs issued daily in December 2021, 16 members, kept for the last week's issues.
 * Kept small so that `npm ci` makes it in about half a minute (docs/forecasts.md gives the sizes).
 */
export const demoOptions: Omit<GenerateOptions, 'onProgress'> = {
  reservoirs: 67,
  stations: 27,
  start: '2019-01-01',
  end: '2021-12-31',
  stationStart: '2010-01-01',
  seed: 20240501,
  forecasts: {
    firstIssue: '2021-12-01',
    lastIssue: '2021-12-31',
    members: 16,
    keepMembers: 7,
    names: [
      'LAKE ALICE',
      'LAKE ESTES',
      'LAKE MEAD',
      'LAKE POWELL',
      'LAKE HAVASU',
      'LAKE MOHAVE',
      'ELEPHANT BUTTE RESERVOIR',
      'FLAMING GORGE RESERVOIR',
      'SHASTA LAKE',
      'FOLSOM LAKE',
      'LAKE PLEASANT',
      'THEODORE ROOSEVELT LAKE',
    ],
  },
};

/**
 * The Texas-like demo database: 30 real Texas reservoir names over the same years, no stations (seed 20240502), and
 * forecasts for every one of them, as the Texas database offers, issued daily over the last two weeks of 2021.
 */
export const texasDemoOptions: Omit<GenerateOptions, 'onProgress'> = {
  reservoirs: 30,
  stations: 0,
  start: demoOptions.start,
  end: demoOptions.end,
  seed: 20240502,
  forecasts: { firstIssue: '2021-12-18', lastIssue: '2021-12-31', members: 16, keepMembers: 7 },
};

/** The folder, inside the demo store's, where `npm ci` (and `evap demo --database twdb`) puts the Texas-like one. */
export const TEXAS_DEMO_FOLDER = 'twdb';

/** The demo databases a server given no store serves, by name: the Reclamation one first (also at the root). */
export const demoDatabaseNames = ['usbr', 'twdb'] as const;

/** The package's root folder (the one holding its package.json), found from this module's location (source or build). */
export function packageRoot(): string {
  let here = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (pathExists(join(here, 'package.json'))) return here;
    here = dirname(here);
  }
  throw new StoreError('the evap package root (its package.json) was not found');
}

/** The package's version, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(readTextFile(join(packageRoot(), 'package.json'))) as { version: string }).version;
}

/** Where the demo store is made on first use when the package has none: EVAP_DEMO_DIR, else the user's cache folder. */
export function demoCacheDir(): string {
  if (process.env.EVAP_DEMO_DIR) return process.env.EVAP_DEMO_DIR;
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'evap', `demo-${packageVersion()}`);
}

/** The demo store folder if it exists: the package's data/ (a clone after `npm ci`), else the cache folder. */
export function findDemoStore(): string | undefined {
  const inPackage = join(packageRoot(), 'data');
  if (pathExists(join(inPackage, MANIFEST_FILE))) return inPackage;
  const cached = demoCacheDir();
  return pathExists(join(cached, MANIFEST_FILE)) ? cached : undefined;
}

/** The demo store folder; throws a StoreError naming the command that makes it when there is none. */
export function defaultStoreDir(): string {
  const found = findDemoStore();
  if (found) return found;
  throw new StoreError(
    `the demo store was not found (looked in ${join(packageRoot(), 'data')} and ${demoCacheDir()}); make it with \`${DEMO_COMMAND}\` and open that folder`,
  );
}

/** Writes the demo store into `dir` (a new snapshot over any store there). */
export async function makeDemoStore(dir: string, onProgress?: GenerateOptions['onProgress']): Promise<void> {
  const { generateStore } = await import('./generate.js'); // the writer (parquet-wasm) is loaded only when needed
  await generateStore(dir, { ...demoOptions, onProgress });
}

/** Writes the Texas-like demo store into `dir`: its reservoirs, years and provenance are set here and nowhere else. */
export async function makeTexasDemoStore(dir: string, onProgress?: GenerateOptions['onProgress']): Promise<void> {
  const [{ generateStore }, { texasReservoirs }, { texasDemoAbout }] = await Promise.all([
    import('./generate.js'),
    import('../model/texas.js'),
    import('../store/about.js'),
  ]);
  await generateStore(dir, { ...texasDemoOptions, places: texasReservoirs, about: texasDemoAbout(texasDemoOptions.seed), onProgress });
}

/** The Texas-like demo store next to the demo store (its `twdb` folder) if it was made. */
export function findTexasDemoStore(): string | undefined {
  const demo = findDemoStore();
  const texas = demo && join(demo, TEXAS_DEMO_FOLDER);
  return texas && pathExists(join(texas, MANIFEST_FILE)) ? texas : undefined;
}

/**
 * The demo store folder, made in the cache folder on first use (about half a minute, said once on stderr). Made aside and
 * renamed into place, so processes starting together never see half a store.
 */
export async function ensureDemoStore(): Promise<string> {
  const found = findDemoStore();
  if (found) return found;
  const target = demoCacheDir();
  console.error(`evap: making the demo store in ${target} (once, about half a minute; \`${DEMO_COMMAND}\` puts a copy elsewhere)`);
  try {
    await makeFolderAside(target, MANIFEST_FILE, (aside) => makeDemoStore(aside));
    // made under another name: its tables' metadata names that folder, so it is written again for this one
    const { publishTables } = await import('../tables/publish.js'); // the writer's side, loaded only when needed
    await publishTables(target).catch(() => undefined); // derived data: `evap tables` can do it later
  } catch (error) {
    throw new StoreError(`the demo store could not be made in ${target}: ${(error as Error).message}; make it with \`${DEMO_COMMAND}\` and open that folder`, {
      cause: error,
    });
  }
  return target;
}
