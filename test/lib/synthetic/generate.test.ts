// A generated store read by DuckDB: every reservoir on every day of every dataset once, per-day statuses as the public
// FAQ's rule (date-fns), stations only on days they measured something; the same seed gives the same data whatever the layout.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { differenceInCalendarDays, parseISO } from 'date-fns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datasetNames } from '../../../lib/catalogue.js';
import { referenceReservoirs } from '../../../lib/model/index.js';
import { type ForcingColumns, modelVariables, runModel } from '../../../lib/model/run.js';
import { openStore } from '../../../lib/open/store.js';
import type { Manifest } from '../../../lib/store/manifest.js';
import { demoOptions } from '../../../lib/synthetic/demo.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { tempDir } from '../../helpers.js';

const options = { reservoirs: 3, stations: 3, start: '2020-12-10', end: '2021-01-20', stationStart: '2020-07-01', seed: 11 }; // the third station is not one the public examples name: it has gaps
const DAYS = differenceInCalendarDays(parseISO(options.end), parseISO(options.start)) + 1;
let dir: string;
let manifest: Manifest;
let progress: [number, number][];
let duck: DuckDBConnection;
const rows = async (sql: string) => (await duck.runAndReadAll(sql)).getRowObjectsJson() as Record<string, string | number | null>[];
const reservoirFiles = (root: string, dataset: string) => `'${join(root, 'reservoirs', `dataset=${dataset}`, 'year=*', '*.parquet')}'`;

beforeAll(async () => {
  dir = await tempDir();
  progress = [];
  manifest = await generateStore(dir, { ...options, onProgress: (done, total) => progress.push([done, total]) });
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => duck.closeSync());

// The status of a day as the public FAQ's rule has it: the last 3 days of the data Early, the 60 before Provisional.
const statusOf = (date: string, end: string) => {
  const age = differenceInCalendarDays(parseISO(end), parseISO(date));
  return age < 3 ? 'Early' : age < 63 ? 'Provisional' : 'Final';
};

describe('generateStore', () => {
  it('writes every reservoir on every day once, in every dataset, with the metadata names', async () => {
    const names = (await rows(`select RES_NAME from read_parquet('${join(dir, manifest.reservoirs.metadata!.path)}') order by RES_NAME`)).map(
      (r) => r.RES_NAME,
    );
    expect(names).toHaveLength(options.reservoirs);
    expect(Object.keys(manifest.datasets).sort()).toEqual([...datasetNames].sort());
    for (const dataset of datasetNames) {
      const [summary] = await rows(`
        select count(*)::int as n, count(distinct (RES_NAME, date))::int as distinct_rows, strftime(min(date), '%Y-%m-%d') as first, strftime(max(date), '%Y-%m-%d') as last,
               list(distinct RES_NAME order by RES_NAME) as names
        from read_parquet(${reservoirFiles(dir, dataset)})`);
      expect(summary, dataset).toEqual({
        n: options.reservoirs * DAYS,
        distinct_rows: options.reservoirs * DAYS,
        first: options.start,
        last: options.end,
        names,
      });
    }
  });

  it("gives each reservoir-day and station-day the FAQ's status for data ending on the last day", async () => {
    for (const files of [reservoirFiles(dir, 'nete-volume-calcs'), `'${join(dir, 'stations', 'station=*', '*.parquet')}'`]) {
      const days = await rows(`select distinct strftime(date, '%Y-%m-%d') as day, status from read_parquet(${files}, union_by_name = true) order by day`);
      expect(days.length).toBeGreaterThan(0);
      for (const { day, status } of days) expect(status, day as string).toBe(statusOf(day as string, options.end));
    }
  });

  it('keeps a station only on days it measured something, and reports its progress to the end', async () => {
    for (const [name, partition] of Object.entries(manifest.stations.partitions)) {
      const variables = partition.variables.map((v) => `"${v}"`);
      const [row] = await rows(
        `select count(*)::int as n, count(*) filter (where coalesce(${variables.join(', ')}) is null)::int as empty from read_parquet('${join(dir, partition.path)}')`,
      );
      expect(row, name).toEqual({ n: partition.rows, empty: 0 });
    }
    expect(Object.keys(manifest.stations.partitions)).toHaveLength(options.stations);
    const total = progress[0]![1];
    expect(progress).toEqual(Array.from({ length: total }, (_, i) => [i + 1, total]));
  });

  it('gives the same data for the same seed, whatever the files and row groups, and other data for another seed', async () => {
    const again = await tempDir();
    await generateStore(again, { ...options, rowsPerFile: 40, rowGroupSize: 7 }); // monthly files of at most 40 rows
    const other = await tempDir();
    await generateStore(other, { ...options, seed: 12 });
    expect(await fileCount(again)).toBeGreaterThan(await fileCount(dir)); // laid out otherwise indeed
    for (const dataset of ['nete-volume-calcs', 'lem']) {
      const differing = (a: string, b: string) =>
        rows(
          `select count(*)::int as n from ((select * exclude (filename) from read_parquet(${reservoirFiles(a, dataset)}, filename = true)) except all (select * exclude (filename) from read_parquet(${reservoirFiles(b, dataset)}, filename = true)))`,
        );
      expect((await differing(dir, again))[0]!.n, dataset).toBe(0);
      expect((await differing(again, dir))[0]!.n, dataset).toBe(0);
      expect((await differing(dir, other))[0]!.n, dataset).toBeGreaterThan(0);
    }
  });
});

// The generator's rows pinned: a store over several chunks of names and monthly files (70 names x 366 days exceed 2,000
// rows a file: chunks of 64 names, a file a month), its every row hashed by DuckDB (its own hash of each row, summed:
// the same multiset of rows gives the same sum), against the sums of the generator as it was when they were recorded.
// A change to the generator's speed must leave them; a change to its model rewrites them (REGEN=1) with a reason.
const PINNED = join(import.meta.dirname, '..', '..', 'golden', 'generated-rows.json');
describe('the generated rows', () => {
  it.each([1, 2])('are those pinned for a fixed seed, to the row (DuckDB hashes every row of every file), with %i worker(s)', async (workers) => {
    const root = await tempDir();
    const manifest = await generateStore(root, { reservoirs: 70, stations: 2, start: '2021-11-20', end: '2022-01-10', seed: 5, rowsPerFile: 2000, workers });
    const sums: Record<string, { n: number; h: string }> = {};
    const sum = async (glob: string) =>
      (await rows(`select count(*)::int as n, sum(hash(t))::varchar as h from read_parquet('${glob}', union_by_name = true) t`))[0] as { n: number; h: string };
    for (const dataset of datasetNames) sums[dataset] = await sum(join(root, 'reservoirs', `dataset=${dataset}`, 'year=*', '*.parquet'));
    sums.stations = await sum(join(root, 'stations', 'station=*', '*.parquet'));
    sums.metadata = await sum(join(root, 'reservoirs', 'metadata', '*.parquet'));
    expect(sums['nete-volume-calcs']!.n).toBe(70 * 52);
    // every Parquet file under the folder is one the snapshot names (the workers' files adopted, nothing else left)
    const named = manifest.datasets.lem!.partitions.flatMap((p) => p.files).length;
    expect((await rows(`select count(*)::int as files from glob('${join(root, 'reservoirs', 'dataset=lem', '*', '*.parquet')}')`))[0]!.files).toBe(named);
    expect(named).toBe(2 * 3); // two chunks of names, three months
    if (process.env.REGEN === '1' && workers === 1) writeFileSync(PINNED, `${JSON.stringify(sums, null, 2)}\n`);
    expect(existsSync(PINNED), `${PINNED} is missing: run with REGEN=1`).toBe(true);
    expect(sums).toEqual(JSON.parse(readFileSync(PINNED, 'utf8')));
  });
});

// The store as the generator's oracle: a reservoir's lem and nete-volume-calcs values are those runModel gives from its
// stored rtma and res values, read back through the library. The demo's own rows for these names: a store of the demo's
// seed and span holds the same rows whatever other names it holds (each reservoir's draws depend on its name alone).
describe('the generated lem values', () => {
  it('equal the DLEM run on the stored forcing, to the rounding', async () => {
    const root = await tempDir();
    const names = ['ANITA RESERVOIR', 'LAKE ALICE', 'LAKE MEAD']; // static, small and large
    const places = referenceReservoirs.filter((r) => names.includes(r.name));
    await generateStore(root, { ...demoOptions, stations: 0, forecasts: undefined, places });
    const store = await openStore(root);
    for (const spec of places) {
      const records = await store.reservoirTimeseries({ names: [spec.name], start: demoOptions.start, end: demoOptions.end, units: 'metric' });
      const column = (variable: string) => {
        const key = Object.keys(records[0]!).find((k) => k.startsWith(`${variable} (`))!;
        return Float64Array.from(records, (r) => r[key] as number);
      };
      const forcing = { date: records.map((r) => r.start_date as string) } as ForcingColumns & Record<string, unknown>;
      for (const name of ['srad', 'tmmx_c', 'tmmn_c', 'vpd_kpa', 'vs2m', 'th', 'pres_pa', 'pr', 'depth_m', 'area_m2'] as const) forcing[name] = column(name);
      const model = runModel(forcing, { lat: spec.lat, elev: spec.elevM }, { tw0: column('Tw0')[0] });
      const area = column('area_m2');
      for (const variable of modelVariables) {
        const stored = column(variable);
        const computed = model.values[variable];
        // the store rounds to 4 decimals (the first day's Tw0 too) and makes its volumes from the rounded depths (mm)
        const volume = variable.endsWith('_volume');
        stored.forEach((x, i) => {
          const tolerance = 2e-4 + (volume ? (2e-4 / 1000) * area[i]! : 0);
          if (!(Math.abs(x - computed[i]!) <= tolerance))
            expect.fail(`${spec.name} ${variable} ${records[i]!.start_date}: stored ${x}, computed ${computed[i]}`);
        });
      }
      expect(Array.from(column('Lerr'))).toEqual(Array.from(model.values.Lerr));
    }
  });
});

async function fileCount(root: string): Promise<number> {
  return (await rows(`select count(*)::int as files from glob(${reservoirFiles(root, 'lem')})`))[0]!.files as number;
}
