// A name's daily series against DuckDB reading the same Parquet files: a hand-made store whose datasets hold different
// days (rows left out at random), gaps, small row groups and several files per year, so days must be aligned across datasets.

import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../../../lib/format/frame.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { selectReservoirs, selectStations } from '../../../lib/query/plan.js';
import { reservoirSeries, reservoirSeriesMany, stationSeries } from '../../../lib/query/series.js';
import type { Snapshot } from '../../../lib/store/open-snapshot.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { day, tempDir } from '../../helpers.js';

const NAMES = ['ALPHA LAKE', 'BETA RESERVOIR', 'GAMMA POND', 'ZETA LAKE']; // DELTA is in the metadata only
const VARIABLES = { 'nete-volume-calcs': ['NetE', 'E_volume'], lem: ['Tw'], rtma: ['pr', 'th'] } as const;
const FIRST = day('2020-12-20');
const LAST = day('2021-01-12');

let store: EvapStore;
let snapshot: Snapshot;
let duck: DuckDBConnection;

beforeAll(async () => {
  const dir = await tempDir();
  // many reservoirs in the metadata make the writer lay out one file per month, at most 20 rows each
  const writer = createStoreWriter(dir, { rowGroupSize: 4, rowsPerFile: 20 });
  await writer.writeReservoirMetadata([...NAMES, 'DELTA LAKE'].map((RES_NAME) => ({ RES_NAME })));
  await writer.writeStationMetadata([{ STA_NAME: 'ONE_STATION' }, { STA_NAME: 'TWO_STATION' }]);
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31; // deterministic, so failures repeat
  for (const [dataset, variables] of Object.entries(VARIABLES)) {
    for (const year of [2020, 2021]) {
      const names: string[] = [];
      const days: number[] = [];
      for (const name of NAMES) {
        for (let d = FIRST; d <= LAST; d++)
          if (new Date(d * 864e5).getUTCFullYear() === year && random() < 0.8) {
            names.push(name);
            days.push(d);
          }
      }
      const values = Object.fromEntries(variables.map((v) => [v, Float64Array.from(days, () => (random() < 0.1 ? NaN : Math.round(random() * 3600) / 10))]));
      await writer.writeReservoirPartition(dataset as keyof typeof VARIABLES, year, { names, days: Int32Array.from(days), values });
    }
  }
  const stationDays = Int32Array.from({ length: 30 }, (_, i) => FIRST + i * 2).filter(() => random() < 0.7);
  await writer.writeStationPartition('ONE_STATION', {
    days: stationDays,
    values: { ATemp: Float64Array.from(stationDays, (d) => d % 7), WS: Float64Array.from(stationDays, (d) => (d % 5 === 0 ? NaN : d % 11)) },
  });
  await writer.commit();
  store = await openStore(dir);
  snapshot = Reflect.get(store, 'snapshot') as Snapshot;
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => duck.closeSync());

type Expected = { days: number[]; columns: number[][] };

// The rows DuckDB reads for one name, one query per dataset, aligned on the union of their days (NaN where a dataset has no row).
async function expectedSeries(
  name: string | undefined,
  variables: readonly { name: string; dataset?: string | null }[],
  startDay: number,
  endDay: number,
): Promise<Expected> {
  const byDataset = new Map<string, Map<number, Record<string, number | null>>>();
  for (const dataset of new Set(variables.map((v) => v.dataset ?? 'station'))) {
    const columns = variables.filter((v) => (v.dataset ?? 'station') === dataset).map((v) => `"${v.name}"`);
    const files =
      name === undefined
        ? join(store.root, store.manifest.stations.partitions.ONE_STATION!.path)
        : join(store.root, 'reservoirs', `dataset=${dataset}`, 'year=*', '*.parquet');
    const where = name === undefined ? 'true' : `RES_NAME = '${name}'`;
    const rows = (
      await duck.runAndReadAll(
        `select datediff('day', DATE '1970-01-01', date)::int as d, ${columns.join(', ')} from read_parquet('${files}') where ${where} and date between DATE '1970-01-01' + ${startDay} and DATE '1970-01-01' + ${endDay}`,
      )
    ).getRowObjectsJson() as Record<string, number | null>[];
    byDataset.set(dataset, new Map(rows.map((r) => [r.d as number, r])));
  }
  const days = [...new Set([...byDataset.values()].flatMap((m) => [...m.keys()]))].sort((a, b) => a - b);
  if (days.length === 0) return { days: [], columns: [] };
  return { days, columns: variables.map((v) => days.map((d) => byDataset.get(v.dataset ?? 'station')!.get(d)?.[v.name] ?? NaN)) };
}

// A block as plain arrays; a column not held (undefined) reads as gaps, and a block without days has no columns.
function plain(block: Block): Expected {
  if (block.days.length === 0) return { days: [], columns: [] };
  return { days: Array.from(block.days), columns: block.columns.map((c) => Array.from({ length: block.days.length }, (_, i) => (c ? c[i]! : NaN))) };
}

const range = fc
  .tuple(fc.integer({ min: FIRST - 3, max: LAST + 3 }), fc.integer({ min: 0, max: 30 }))
  .map(([start, length]) => [start, start + length] as const);
const variables = fc.subarray(
  Object.entries(VARIABLES).flatMap(([, vs]) => [...vs]),
  { minLength: 1 },
);

describe('reservoirSeries and reservoirSeriesMany', () => {
  it("give each name DuckDB's rows, aligned on the days any dataset holds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([...NAMES, 'DELTA LAKE'].sort(), { minLength: 1 }) /* sorted, as a plan's names are */,
        variables,
        range,
        async (names, asked, [startDay, endDay]) => {
          const columns = selectReservoirs(snapshot, { names, variables: asked }).columns;
          const many = await reservoirSeriesMany(snapshot, names, columns, startDay, endDay);
          for (const name of names) {
            const expected = await expectedSeries(name, columns, startDay, endDay);
            expect(plain(many.get(name)!), name).toEqual(expected);
            expect(plain(await reservoirSeries(snapshot, name, columns, startDay, endDay)), name).toEqual(expected);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('hold nothing for a name without rows, and no columns past the data', async () => {
    const columns = selectReservoirs(snapshot, { names: ['DELTA LAKE'], variables: ['NetE', 'pr'] }).columns;
    expect((await reservoirSeries(snapshot, 'DELTA LAKE', columns, FIRST, LAST)).days).toHaveLength(0);
    expect((await reservoirSeries(snapshot, 'ALPHA LAKE', columns, LAST + 1, LAST + 400)).days).toHaveLength(0);
  });
});

describe('stationSeries', () => {
  it("gives DuckDB's rows of the station file; a variable it does not measure is not held", async () => {
    await fc.assert(
      fc.asyncProperty(range, async ([startDay, endDay]) => {
        const columns = selectStations(snapshot, { names: ['ONE_STATION'], variables: ['WS', 'ATemp', 'RH'] }).columns;
        const block = await stationSeries(snapshot, 'ONE_STATION', columns, startDay, endDay);
        const expected = await expectedSeries(undefined, columns.slice(0, 2), startDay, endDay);
        expect(block.days.length === 0 || block.columns[2] === undefined).toBe(true);
        expect(plain({ days: block.days, columns: block.columns.slice(0, 2) })).toEqual(expected);
      }),
      { numRuns: 30 },
    );
    expect(await stationSeries(snapshot, 'TWO_STATION', [], FIRST, LAST)).toEqual({ days: [], columns: [] });
  });
});
