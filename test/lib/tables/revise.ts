// Test aid: random revisions of the tiny store, each one commit the way ingest makes them (the tables published with
// it), for the properties that compare an engine's reading of the tables with the library's.
import fc from 'fast-check';
import { openStore } from '../../../lib/open/store.js';
import { createStoreWriter, type ReservoirRows } from '../../../lib/writer/write.js';
import { day, daysFrom } from '../../helpers.js';

// one revision of the store: values (a gap as null) or flags changed, days added, a reservoir added with its metadata, a station rewritten
export type Revision =
  | { kind: 'values'; dataset: 'nete-volume-calcs' | 'lem'; year: 2020 | 2021; edits: { row: number; value: number | null; flag: number | null }[] }
  | { kind: 'days'; count: number; value: number }
  | { kind: 'reservoir'; value: number }
  | { kind: 'station'; values: (number | null)[] };

const value = fc.oneof(
  fc.constant(null),
  fc.double({ min: -1e4, max: 1e4, noNaN: true }).map((v) => Math.round(v * 1e4) / 1e4),
);
export const revision: fc.Arbitrary<Revision> = fc.oneof(
  fc.record({
    kind: fc.constant('values' as const),
    dataset: fc.constantFrom('nete-volume-calcs' as const, 'lem' as const),
    year: fc.constantFrom(2020 as const, 2021 as const),
    edits: fc.array(fc.record({ row: fc.nat(), value, flag: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 2 })) }), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('days' as const), count: fc.integer({ min: 1, max: 3 }), value: fc.integer({ min: -50, max: 50 }) }),
  fc.record({ kind: fc.constant('reservoir' as const), value: fc.integer({ min: 0, max: 100 }) }),
  fc.record({ kind: fc.constant('station' as const), values: fc.array(value, { minLength: 1, maxLength: 6 }) }),
);

const variablesOf = { 'nete-volume-calcs': ['NetE', 'E_volume'], lem: ['E_hs'] } as const;

/** Applies one revision as one commit, the way ingest does: whole dataset-years rewritten. */
export async function revise(dir: string, r: Revision, step: number): Promise<void> {
  const store = await openStore(dir);
  const writer = createStoreWriter(dir, { base: store.manifest });
  const partition = async (dataset: 'nete-volume-calcs' | 'lem', year: number): Promise<ReservoirRows> =>
    (await store.readReservoirPartition(dataset, year)) ?? {
      names: ['ALPHA LAKE', 'BETA RESERVOIR'],
      days: Int32Array.from([day(`${year}-06-01`), day(`${year}-06-01`)]),
      values: { [variablesOf[dataset][0]]: Float64Array.from([1, 2]) },
    };
  if (r.kind === 'values') {
    const rows = await partition(r.dataset, r.year);
    const values = Object.fromEntries(variablesOf[r.dataset].map((v) => [v, rows.values[v] ?? new Float64Array(rows.days.length).fill(NaN)]));
    values.status = rows.values.status ?? new Float64Array(rows.days.length).fill(NaN);
    for (const e of r.edits) {
      const i = e.row % rows.days.length;
      values[variablesOf[r.dataset][0]]![i] = e.value ?? NaN;
      values.status[i] = e.flag ?? NaN;
    }
    await writer.writeReservoirPartition(r.dataset, r.year, { ...rows, values });
  } else if (r.kind === 'days') {
    const rows = await partition('nete-volume-calcs', 2021);
    const names = [...new Set(rows.names)];
    const last = Math.max(...rows.days);
    const add = names.flatMap((n) => Array.from({ length: r.count }, (_, k) => [n, last + 1 + k] as const));
    const all = [...rows.names.map((n, i) => [n, rows.days[i]!, i] as const), ...add.map(([n, d]) => [n, d, -1] as const)].sort((a, b) =>
      a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1],
    );
    const values = Object.fromEntries(
      Object.entries(rows.values).map(([v, col]) => [v, Float64Array.from(all, ([, , i]) => (i >= 0 ? col[i]! : v === 'NetE' ? r.value : NaN))]),
    );
    await writer.writeReservoirPartition('nete-volume-calcs', 2021, { names: all.map(([n]) => n), days: Int32Array.from(all, ([, d]) => d), values });
  } else if (r.kind === 'reservoir') {
    const name = `GAMMA ${step}`;
    const metadata = store.metadataRows('reservoirs');
    await writer.writeReservoirMetadata([
      ...metadata,
      { RES_NAME: name, STATE: 'NV', LAT: 36 + r.value / 100, LON: -114, Shape_Area: r.value * 1000, qflag: 'O' },
    ]);
    const rows = await partition('nete-volume-calcs', 2021);
    const at = rows.names.filter((n) => n < name).length;
    const days = daysFrom('2021-01-01', 2);
    const names = [...rows.names.slice(0, at), name, name, ...rows.names.slice(at)];
    const values = Object.fromEntries(
      Object.entries(rows.values).map(([v, col]) => {
        const added = v === 'qflag' || v === 'status' ? [NaN, 0] : [r.value, r.value + 1];
        return [v, Float64Array.from([...col.slice(0, at), ...added, ...col.slice(at)])];
      }),
    );
    await writer.writeReservoirPartition('nete-volume-calcs', 2021, {
      names,
      days: Int32Array.from([...rows.days.slice(0, at), ...days, ...rows.days.slice(at)]),
      values,
    });
  } else {
    await writer.writeStationPartition('ALPHA_STATION', {
      days: daysFrom('2020-12-30', r.values.length),
      values: { ATemp: Float64Array.from(r.values, (v) => v ?? NaN), RH: Float64Array.from(r.values, (v, i) => (v === null ? i : NaN)) },
    });
  }
  await store.close();
  await writer.commit();
  if (writer.tables instanceof Error) throw writer.tables;
}
