// Per-day flags (issue 13): what the generator writes into the Parquet files, read back by DuckDB (not our reader),
// and what the library answers with also_return=qflag,status.
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EvapStore, openStore } from '../../lib/open/store.js';
import { generateStore } from '../../lib/synthetic/generate.js';
import { tempDir } from '../helpers.js';

const END = '2020-06-30';
let dir: string;
let store: EvapStore;
let duck: DuckDBConnection;

beforeAll(async () => {
  dir = await tempDir();
  await generateStore(dir, { reservoirs: 10, stations: 4, start: '2019-01-01', end: END, seed: 11 });
  store = await openStore(dir);
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => duck?.closeSync());

type Row = { RES_NAME: string; date: string; qflag: string; status: string; stage_m: number; area_m2: number; depth_m: number };

/** Every reservoir-day of the res dataset as the files hold it, by name then date. */
async function resRows(): Promise<Row[]> {
  const reader = await duck.runAndReadAll(
    `SELECT RES_NAME, strftime(date, '%Y-%m-%d') AS date, qflag, status, stage_m, area_m2, depth_m
     FROM read_parquet('${dir}/reservoirs/dataset=res/*/*.parquet') ORDER BY RES_NAME, date`,
  );
  return reader.getRowObjectsJson() as unknown as Row[];
}

const rank = { Final: 0, Provisional: 1, Early: 2 } as Record<string, number>;

describe('per-day flags in the store', () => {
  it('writes qflag and status as text columns of every reservoir file, with the allowed values only', async () => {
    for (const dataset of store.listDatasets()) {
      const reader = await duck.runAndReadAll(
        `SELECT DISTINCT qflag, status, typeof(qflag) AS t FROM read_parquet('${dir}/reservoirs/dataset=${dataset}/*/*.parquet')`,
      );
      for (const row of reader.getRowObjectsJson()) {
        expect(['O', 'M', 'S', 'R']).toContain(row.qflag);
        expect(['Early', 'Provisional', 'Final']).toContain(row.status);
        expect(row.t).toBe('VARCHAR');
      }
    }
  });

  it('keeps statuses monotone in time: Final, then the ~60 Provisional days, then the last 3 Early', async () => {
    const rows = await resRows();
    const stations = (
      await duck.runAndReadAll(`SELECT filename, status FROM read_parquet('${dir}/stations/station=*/*.parquet', filename = true) ORDER BY filename, date`)
    ).getRowObjectsJson();
    const series = new Map<string, string[]>();
    for (const r of [
      ...rows.map((r) => ({ key: r.RES_NAME, status: r.status })),
      ...stations.map((r) => ({ key: String(r.filename), status: String(r.status) })),
    ]) {
      series.set(r.key, [...(series.get(r.key) ?? []), r.status]);
    }
    expect(series.size).toBe(14);
    for (const [name, statuses] of series) {
      for (let i = 1; i < statuses.length; i++)
        expect(rank[statuses[i]!]! >= rank[statuses[i - 1]!]!, `${name} day ${i}: ${statuses[i - 1]} then ${statuses[i]}`).toBe(true);
    }
    const mead = rows.filter((r) => r.RES_NAME === rows[0]!.RES_NAME);
    expect(mead.at(-1)!.date).toBe(END);
    expect(mead.slice(-3).map((r) => r.status)).toEqual(['Early', 'Early', 'Early']);
    expect(mead.filter((r) => r.status === 'Provisional').length).toBe(60);
    expect(mead[mead.length - 64]!.status).toBe('Final');
  });

  it("repeats the previous day's storage values on every M day, and has M days, R days and static S reservoirs", async () => {
    const rows = await resRows();
    const seen = { M: 0, R: 0, S: 0, O: 0 } as Record<string, number>;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      seen[r.qflag]!++;
      if (r.qflag !== 'M' || i === 0 || rows[i - 1]!.RES_NAME !== r.RES_NAME) continue;
      const p = rows[i - 1]!;
      expect([r.stage_m, r.area_m2, r.depth_m], `${r.RES_NAME} ${r.date}`).toEqual([p.stage_m, p.area_m2, p.depth_m]);
    }
    expect(seen.M).toBeGreaterThan(5);
    expect(seen.O).toBeGreaterThan(seen.M);
    expect(seen.S).toBeGreaterThan(0);
    // a static reservoir is S every day, a live one never
    const byName = new Map<string, Set<string>>();
    for (const r of rows) byName.set(r.RES_NAME, (byName.get(r.RES_NAME) ?? new Set()).add(r.qflag));
    for (const [name, flags] of byName) {
      if (flags.has('S')) expect([...flags], name).toEqual(['S']);
      expect(store.reservoirMetadata([name])[0]!.qflag, name).toBe(flags.has('S') ? 'S' : 'O');
    }
  });

  it("answers each record's own day flags, as the files hold them, for any names, datasets and dates", async () => {
    const rows = await resRows();
    const expected = new Map(rows.map((r) => [`${r.RES_NAME}|${r.date}`, r]));
    const names = [...new Set(rows.map((r) => r.RES_NAME))];
    const days = [...new Set(rows.map((r) => r.date))];
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(names, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('rtma', 'res', 'lem', 'nete-volume-calcs'),
        fc.nat(days.length - 1),
        fc.integer({ min: 0, max: 120 }),
        fc.boolean(),
        async (picked, dataset, from, length, statusFirst) => {
          const start = days[from]!;
          const end = days[Math.min(days.length - 1, from + length)]!;
          const alsoReturn = statusFirst ? ['status', 'qflag'] : ['qflag', 'status'];
          const records = await store.reservoirTimeseries({ names: picked, datasets: [dataset], start, end, alsoReturn });
          expect(records.length).toBe(picked.length * (days.indexOf(end) - from + 1));
          for (const r of records) {
            const file = expected.get(`${r.RES_NAME}|${r.start_date}`)!;
            expect(Object.keys(r).slice(-2)).toEqual(alsoReturn);
            expect([r.qflag, r.status]).toEqual([file.qflag, file.status]);
          }
          const onDate = await store.reservoirTimeseriesOnDate({ datasets: [dataset], date: start, alsoReturn });
          for (const r of onDate)
            expect([r.qflag, r.status]).toEqual([expected.get(`${r.RES_NAME}|${start}`)!.qflag, expected.get(`${r.RES_NAME}|${start}`)!.status]);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('gives stations a status per day and keeps their metadata qflag', async () => {
    const name = store.manifest.stations.names[0]!;
    const records = await store.stationTimeseries({ names: [name], start: '2020-04-20', end: END, variables: ['ATemp'], alsoReturn: ['qflag', 'status'] });
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      expect(r.qflag).toBe(store.stationMetadata([name])[0]!.qflag);
      const age = (Date.parse(`${END}T00:00:00Z`) - Date.parse(`${r.start_date}T00:00:00Z`)) / 86_400_000;
      expect(r.status).toBe(age < 3 ? 'Early' : age < 63 ? 'Provisional' : 'Final');
    }
  });

  it('adds the flags to Arrow tables, and refuses status on aggregates with a 422-style parameter error', async () => {
    const table = await store.reservoirTimeseriesTable({
      names: [store.manifest.reservoirs.names[0]!],
      datasets: ['res'],
      start: '2020-06-25',
      end: END,
      alsoReturn: ['qflag', 'status'],
    });
    expect(table.schema.fields.map((f) => f.name).slice(-2)).toEqual(['qflag', 'status']);
    expect(table.getChild('status')!.toArray().slice(-3)).toEqual(['Early', 'Early', 'Early']);
    await expect(
      store.reservoirAggregates({ names: store.manifest.reservoirs.names.slice(0, 1), interval: 'monthly', alsoReturn: ['status'] }),
    ).rejects.toMatchObject({ name: 'InvalidParameterError', parameter: 'alsoReturn' }); // the option the caller wrote
  });
});
