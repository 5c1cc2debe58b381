// The date-major copy of each dataset's latest year, a month a file: the same rows as the partitions (DuckDB reads
// both), the same answers on a date with and without it (before and after a revision), a revision making again only
// the months whose files it changed, and no row counted twice by engines reading the Iceberg tables (ClickHouse) or
// the partition folders (DuckDB).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { query } from 'chdb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reservoirDatasets } from '../../../lib/catalogue.js';
import { formatDay, parseDay } from '../../../lib/dates.js';
import { openStore } from '../../../lib/open/store.js';
import { BY_DATE_DAYS, copyMonths } from '../../../lib/store/by-date.js';
import { readCurrentManifest } from '../../../lib/store/history.js';
import type { ByDateFile, Manifest } from '../../../lib/store/manifest.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { publishTables } from '../../../lib/tables/publish.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { dropIndexes } from '../../helpers.js';
import { workDir } from '../tables/engine.js';

const options = { reservoirs: 9, stations: 1, start: '2020-12-01', end: '2021-01-20', seed: 7, rowGroupSize: 32, rowsPerFile: 256 };

async function rowsOf(sql: string): Promise<Record<string, unknown>[]> {
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  const rows = (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  connection.closeSync();
  return rows;
}

describe('date-major copy', () => {
  it('holds the partitions’ rows of every month of the last year, a month a file by date then name, as DuckDB reads both', async () => {
    const dir = await workDir();
    const manifest = await generateStore(dir, options);
    const copies = manifest.datasets.rtma!.byDate!;
    // the store's 51 days lie within the last year: both of their months, each whole as far as it has rows
    expect(copies.map((f) => [f.month, f.start, f.end])).toEqual([
      ['2020-12', '2020-12-01', '2020-12-31'],
      ['2021-01', '2021-01-01', '2021-01-20'],
    ]);
    const columns = ['RES_NAME', 'date', ...Object.keys(reservoirDatasets.rtma.variables)].join(', ');
    const files = copies.map((f) => `'${join(dir, f.path)}'`).join(', ');
    const fromCopy = await rowsOf(`select ${columns} from read_parquet([${files}])`);
    const fromPartitions = await rowsOf(
      `select ${columns} from read_parquet('${join(dir, 'reservoirs', 'dataset=rtma', 'year=*', '*.parquet')}') order by date, RES_NAME`,
    );
    expect(fromCopy.length).toBe(9 * 51);
    expect(fromCopy).toEqual(fromPartitions); // the copy's own order is date then name, file after file
  }, 60_000);

  it('spans the months of the dataset’s last days', () => {
    // an oracle by the calendar: the month of every day of the span, one by one
    const monthsByDays = (end: string, days: number) => {
      const months = new Set<string>();
      for (let d = parseDay(end, 'end') - days + 1; d <= parseDay(end, 'end'); d++) months.add(formatDay(d).slice(0, 7));
      return [...months];
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60_000 }), fc.integer({ min: 0, max: 800 }), (endDay, days) => {
        const end = formatDay(endDay);
        const partition = { year: Number(end.slice(0, 4)), start: end, end, files: [] };
        const manifest = { datasets: { rtma: { variables: [], partitions: [partition] } } } as unknown as Manifest;
        expect(copyMonths(manifest, 'rtma', days)).toEqual(monthsByDays(end, days));
      }),
    );
    expect(BY_DATE_DAYS).toBeGreaterThanOrEqual(365); // a year of maps
  });

  it('is made again only for the months whose partition files a commit changed, and follows its span', async () => {
    const dir = await workDir();
    const options2 = { ...options, start: '2020-11-01', rowsPerFile: 9 * 31 }; // a month a file: 9 names x 31 days at most
    const first = await generateStore(dir, options2);
    const paths = (m: Manifest) => Object.fromEntries((m.datasets.res!.byDate ?? []).map((f) => [f.month, f.path]));
    expect(Object.keys(paths(first))).toEqual(['2020-11', '2020-12', '2021-01']);
    // December 2020 rewritten alone (a file a month: November's file of the same year stays)
    const store = await openStore(dir);
    const year = (await store.readReservoirPartition('res', 2020))!;
    await store.close();
    const december = year.names.flatMap((_, i) => (formatDay(year.days[i]!) >= '2020-12-01' ? [i] : []));
    const rows = {
      names: december.map((i) => year.names[i]!),
      days: Int32Array.from(december, (i) => year.days[i]!),
      values: Object.fromEntries(Object.entries(year.values).map(([k, v]) => [k, Float64Array.from(december, (i) => v[i]! + (k === 'depth_m' ? 1 : 0))])),
    };
    const writer = createStoreWriter(dir, { base: first });
    const decemberFiles = first.datasets.res!.partitions.find((p) => p.year === 2020)!.files.filter((f) => f.start >= '2020-12-01');
    writer.removeReservoirFiles(
      'res',
      2020,
      decemberFiles.map((f) => f.path),
    );
    await writer.addReservoirRows('res', 2020, rows);
    const second = await writer.commit();
    // December's copy made again, November's and January's the files before
    expect(paths(second)['2020-11']).toBe(paths(first)['2020-11']);
    expect(paths(second)['2020-12']).not.toBe(paths(first)['2020-12']);
    expect(paths(second)['2020-12']).toContain(second.snapshot);
    expect(paths(second)['2021-01']).toBe(paths(first)['2021-01']);
    expect(second.stations.byDate!.map((f) => f.path)).toEqual(first.stations.byDate!.map((f) => f.path)); // no station changed
    const opened = await openStore(dir);
    const day = await opened.reservoirTimeseriesOnDate({ datasets: ['res'], variables: ['depth_m'], date: '2020-12-05' });
    expect(day.map((r) => r['depth_m (m)'])).toEqual(
      rows.names.flatMap((_, i) => (rows.days[i] === parseDay('2020-12-05', 'd') ? [Math.round(rows.values.depth_m![i]! * 1e4) / 1e4] : [])),
    );
    expect(opened.readStats().footersRead).toBe(0);
    await opened.close();
    // a shorter span drops the months before it, none drops the copy
    const shorter = await createStoreWriter(dir, { base: second, byDateDays: 20 }).commit();
    expect(Object.keys(paths(shorter))).toEqual(['2021-01']);
    expect(paths(shorter)['2021-01']).toBe(paths(first)['2021-01']);
    // the span is the store's setting: a commit that names none keeps it
    expect(shorter.byDateDays).toBe(20);
    const kept = await createStoreWriter(dir, { base: shorter }).commit();
    expect(Object.keys(paths(kept))).toEqual(['2021-01']);
    const none = await createStoreWriter(dir, { base: kept, byDateDays: 0 }).commit();
    expect(none.datasets.res!.byDate).toBeUndefined();
    expect((await createStoreWriter(dir, { base: none }).commit()).datasets.res!.byDate).toBeUndefined();
  }, 120_000);

  it('keeps a month whose rows are the same when a file of the year was rewritten, and makes again the month that changed', async () => {
    const dir = await workDir();
    // a file a year (few names): a revision of one day rewrites the year's file, which holds every month
    const first = await generateStore(dir, { reservoirs: 4, stations: 1, start: '2021-01-01', end: '2021-03-10', seed: 3 });
    const paths = (m: Manifest) => Object.fromEntries((m.datasets.res!.byDate ?? []).map((f) => [f.month, f.path]));
    expect(first.datasets.res!.partitions.flatMap((p) => p.files)).toHaveLength(1);
    const store = await openStore(dir);
    const rows = (await store.readReservoirPartition('res', 2021))!;
    await store.close();
    const revise = async (base: Manifest, change: (day: number) => number) => {
      const writer = createStoreWriter(dir, { base });
      const depth = rows.values.depth_m!.map((v, i) => v + change(rows.days[i]!));
      await writer.writeReservoirPartition('res', 2021, { ...rows, values: { ...rows.values, depth_m: depth } });
      return writer.commit();
    };
    const same = await revise(first, () => 0);
    expect(same.datasets.res!.partitions[0]!.files[0]!.path).not.toBe(first.datasets.res!.partitions[0]!.files[0]!.path);
    expect(paths(same)).toEqual(paths(first)); // every month's rows the same
    const march = await revise(same, (day) => (day === parseDay('2021-03-05', 'd') ? 1 : 0));
    expect(paths(march)['2021-01']).toBe(paths(first)['2021-01']);
    expect(paths(march)['2021-02']).toBe(paths(first)['2021-02']);
    expect(paths(march)['2021-03']).toContain(march.snapshot);
    const opened = await openStore(dir);
    const answer = await opened.reservoirTimeseriesOnDate({ datasets: ['res'], variables: ['depth_m'], date: '2021-03-05' });
    const expected = rows.names.flatMap((_, i) =>
      rows.days[i] === parseDay('2021-03-05', 'd') ? [Math.round((rows.values.depth_m![i]! + 1) * 1e4) / 1e4] : [],
    );
    expect(answer.map((r) => r['depth_m (m)'])).toEqual(expected);
    await opened.close();
  }, 60_000);

  it('of a store of format 3 (one file, no month) is read as it is, and made again a month a file by the next commit', async () => {
    const dir = await workDir();
    const made = await generateStore(dir, options);
    const q = { datasets: ['rtma'], variables: ['pr', 'etr'], date: '2021-01-12' };
    const expected = await (await openStore(dir)).reservoirTimeseriesOnDate(q);
    // format 3 named one file of the last days: January's file stands for it, without its month
    const raw = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    for (const d of Object.values(raw.datasets) as { byDate: ByDateFile[] }[]) {
      const { month, ...january } = d.byDate.at(-1)!;
      (d as unknown as { byDate: ByDateFile }).byDate = january;
    }
    raw.version = 3;
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(raw));
    await writeFile(join(dir, 'snapshots', `${String(raw.sequence).padStart(10, '0')}.json`), JSON.stringify(raw));
    const old = await openStore(dir);
    expect(old.manifest.datasets.rtma!.byDate!.map((f) => f.month)).toEqual([undefined]);
    expect(await old.reservoirTimeseriesOnDate(q)).toEqual(expected);
    expect(old.readStats().footersRead).toBe(0);
    await old.close();
    const next = await createStoreWriter(dir, { base: await readCurrentManifest(dir) }).commit();
    expect(next.version).toBe(4);
    expect(next.datasets.rtma!.byDate!.map((f) => f.month)).toEqual(['2020-12', '2021-01']);
    expect(next.datasets.rtma!.byDate!.every((f) => f.path.includes(next.snapshot))).toBe(true); // none kept: no month was known
    expect(made.datasets.rtma!.byDate!.map((f) => f.rows)).toEqual(next.datasets.rtma!.byDate!.map((f) => f.rows));
    const now = await openStore(dir);
    expect(await now.reservoirTimeseriesOnDate(q)).toEqual(expected);
    await now.close();
  }, 60_000);

  it('answers every reservoir on a date as the partitions do, before and after a revision', async () => {
    const dir = await workDir();
    const plain = await workDir();
    await generateStore(dir, options);
    await generateStore(plain, options);
    await dropIndexes(plain); // no copy, no index: the partitions only
    const revise = async (at: string, value: number) => {
      for (const d of [dir, plain]) {
        const store = await openStore(d);
        const rows = (await store.readReservoirPartition('nete-volume-calcs', 2021))!;
        await store.close();
        const values = { ...rows.values, NetE: rows.values.NetE!.map((v, i) => (rows.days[i] === parseDay(at, 'at') ? value : v)) };
        const writer = createStoreWriter(d, { base: (await openStore(d)).manifest, byDateDays: d === plain ? 0 : undefined });
        await writer.writeReservoirPartition('nete-volume-calcs', 2021, { ...rows, values });
        await writer.commit();
      }
    };
    const compare = async (dates: string[]) => {
      const [withCopy, without] = [await openStore(dir), await openStore(plain)];
      for (const date of dates) {
        const q = { datasets: ['rtma', 'nete-volume-calcs'], variables: ['pr', 'etr', 'NetE', 'E_volume'], date, alsoReturn: ['qflag', 'status'] };
        expect(await withCopy.reservoirTimeseriesOnDate(q), date).toEqual(await without.reservoirTimeseriesOnDate(q));
      }
      expect(withCopy.readStats().footersRead).toBe(0);
      await withCopy.close();
      await without.close();
    };
    await compare(['2021-01-20', '2021-01-07', '2021-01-06', '2020-12-31', '2021-01-13']);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 19 }), fc.double({ min: -5, max: 5, noNaN: true }), async (offset, value) => {
        const at = formatDay(parseDay('2021-01-01', 'd') + offset);
        await revise(at, Math.round(value * 1e4) / 1e4);
        await compare([at, '2021-01-20']);
      }),
      { numRuns: 3 },
    );
  }, 120_000);

  it('of the stations holds their rows a month a file, answers every station on a date as their files do, and follows a revision', async () => {
    const [dir, plain] = [await workDir(), await workDir()];
    const stationOptions = { ...options, stations: 5, stationStart: '2020-11-15' };
    const made = await generateStore(dir, stationOptions);
    await generateStore(plain, stationOptions);
    await dropIndexes(plain);
    const copies = made.stations.byDate!;
    expect(copies.map((f) => [f.month, f.start, f.end])).toEqual([
      ['2020-11', '2020-11-15', '2020-11-30'],
      ['2020-12', '2020-12-01', '2020-12-31'],
      ['2021-01', '2021-01-01', '2021-01-20'],
    ]);
    // DuckDB: the copy's rows are the station files' rows, by date then station
    const variables = [...new Set(Object.values(made.stations.partitions).flatMap((p) => p.variables))];
    const columns = ['STA_NAME', 'date', ...variables].map((c) => `"${c}"`).join(', ');
    const fromCopy = await rowsOf(`select ${columns} from read_parquet([${copies.map((f) => `'${join(dir, f.path)}'`).join(', ')}], union_by_name = true)`);
    const fromFiles = await rowsOf(
      `select ${columns} from read_parquet('${join(dir, 'stations', 'station=*', '*.parquet')}', union_by_name = true) order by date, STA_NAME`,
    );
    expect(fromCopy.length).toBe(Object.values(made.stations.partitions).reduce((n, p) => n + p.rows, 0));
    expect(fromCopy).toEqual(fromFiles);
    const compare = async (dates: [string, number][]) => {
      const [withCopy, without] = [await openStore(dir), await openStore(plain)];
      for (const [date, stations] of dates) {
        const q = { date, alsoReturn: ['status'] };
        const answer = await withCopy.stationTimeseriesOnDate(q);
        expect(answer.length, date).toBe(stations);
        expect(answer, date).toEqual(await without.stationTimeseriesOnDate(q));
      }
      await withCopy.close();
      await without.close();
    };
    await compare([
      ['2020-11-15', 5],
      ['2020-12-31', 5],
      ['2021-01-20', 5],
    ]);
    // one station revised: its months made again, the answers still its file's
    const name = made.stations.names[2]!;
    for (const d of [dir, plain]) {
      const store = await openStore(d);
      const rows = (await store.readStationPartition(name))!;
      await store.close();
      const writer = createStoreWriter(d, { base: (await openStore(d)).manifest });
      const values = Object.fromEntries(Object.entries(rows.values).map(([k, v]) => [k, k === 'status' ? v : v.map((x) => x + 2)]));
      await writer.writeStationPartition(name, {
        days: rows.days.filter((day) => day >= parseDay('2020-12-10', 'd')),
        values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.filter((_, i) => rows.days[i]! >= parseDay('2020-12-10', 'd'))])),
      });
      const next = await writer.commit();
      if (d === dir) expect(next.stations.byDate!.map((f) => f.path.includes(next.snapshot))).toEqual([true, true, true]); // its file held every month
    }
    await compare([
      ['2020-11-20', 4], // the revised station begins on 10 December now
      ['2020-12-09', 4],
      ['2020-12-10', 5],
      ['2021-01-20', 5],
    ]);
  }, 120_000);

  it('is no data file of the Iceberg tables: ClickHouse and DuckDB count each row once', async () => {
    const dir = await workDir();
    const manifest = await generateStore(dir, options);
    await publishTables(dir);
    const rows = manifest.datasets['nete-volume-calcs']!.partitions.reduce((n, p) => n + p.files.reduce((m, f) => m + f.rows, 0), 0);
    expect(rows).toBe(9 * 51);
    expect(manifest.datasets['nete-volume-calcs']!.byDate!.reduce((n, f) => n + f.rows, 0)).toBe(rows); // the year holds every day
    const table = join('.', dir.slice(process.cwd().length + 1), 'tables', 'reservoir_nete_volume_calcs');
    const counted = JSON.parse(query(`SELECT count() AS n, uniqExact(RES_NAME, date) AS u FROM icebergLocal('${table}')`, 'JSON')).data[0];
    expect([Number(counted.n), Number(counted.u)]).toEqual([rows, rows]);
    const [duck] = await rowsOf(`select count(*)::int as n from read_parquet('${join(dir, 'reservoirs', 'dataset=nete-volume-calcs', '*', '*.parquet')}')`);
    expect(duck!.n).toBe(rows);
  }, 60_000);
});
