// Revision history (issue 13): an ingest of a revision, answers as of before and after it, the list of snapshots,
// and vacuum's retention of past snapshots.
import { beforeAll, describe, expect, it } from 'vitest';
import { ingest, textSource } from '../../../lib/ingest/ingest.js';
import { openStore } from '../../../lib/open/store.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import type { WireRecord } from '../../../lib/types.js';
import { vacuumStore } from '../../../lib/writer/vacuum.js';
import { tempDir } from '../../helpers.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const query = { datasets: ['nete-volume-calcs'], variables: ['NetE'], start: '2021-01-15', end: '2021-03-31', alsoReturn: ['status', 'qflag'] };

let dir: string;
let name: string;
let before: WireRecord[];
let after: WireRecord[];
let beforeTime: string;
const revised = new Set(['2021-02-01', '2021-02-02', '2021-02-03', '2021-03-30']);

beforeAll(async () => {
  dir = await tempDir();
  await generateStore(dir, { reservoirs: 3, stations: 1, start: '2021-01-01', end: '2021-03-31', seed: 5 });
  let store = await openStore(dir);
  name = store.manifest.reservoirs.names[1]!;
  before = await store.reservoirTimeseries({ ...query, names: [name] });
  await store.close();
  await pause(20);
  beforeTime = new Date().toISOString();
  await pause(20);
  // the revision: a few Provisional days become Final, one Early day Provisional, each with a new value
  const records = before
    .filter((r) => revised.has(r.start_date as string))
    .map((r) => ({ ...r, 'NetE (mm)': (r['NetE (mm)'] as number) + 1, status: r.status === 'Early' ? 'Provisional' : 'Final' }));
  const summary = await ingest(dir, [textSource('revision.json', JSON.stringify(records))]);
  expect(summary).toMatchObject({ rejected: 0, replaced: revised.size });
  store = await openStore(dir);
  after = await store.reservoirTimeseries({ ...query, names: [name] });
  await store.close();
});

describe('an ingested revision', () => {
  it("turns the revised days' status as the file says and leaves every other day as it was", () => {
    expect(after).toHaveLength(before.length);
    const statuses = (rows: WireRecord[]) => rows.map((r) => `${r.start_date} ${r.status}`);
    expect(statuses(before).filter((s) => s.startsWith('2021-02-01'))).toEqual(['2021-02-01 Provisional']);
    before.forEach((old, i) => {
      const now = after[i]!;
      if (!revised.has(old.start_date as string)) return expect(now).toEqual(old);
      expect(now.status).toBe(old.status === 'Early' ? 'Provisional' : 'Final');
      expect(now['NetE (mm)']).toBeCloseTo((old['NetE (mm)'] as number) + 1, 4);
      expect(now.qflag).toBe(old.qflag); // the file gave no qflag: the day keeps its own
    });
  });
});

describe('as_of', () => {
  it('answers the old values and statuses before the ingest and the new ones after it', async () => {
    const store = await openStore(dir);
    expect(await store.reservoirTimeseries({ ...query, names: [name], asOf: beforeTime })).toEqual(before);
    expect(await store.reservoirTimeseries({ ...query, names: [name], asOf: new Date().toISOString() })).toEqual(after);
    // a date means the end of that day: today is after the ingest
    expect(await store.reservoirTimeseries({ ...query, names: [name], asOf: new Date().toISOString().slice(0, 10) })).toEqual(after);
    const old = await store.asOf(beforeTime);
    const { start: _start, end: _end, ...onDate } = query; // a date path takes no range: a start or end would be refused
    expect(await old.reservoirTimeseriesOnDate({ ...onDate, date: '2021-02-01' })).toEqual(
      await store.reservoirTimeseriesOnDate({ ...onDate, date: '2021-02-01', asOf: beforeTime }),
    );
    await store.close();
  });

  it('refuses a time older than the retained history, naming the oldest snapshot, and a malformed one', async () => {
    const store = await openStore(dir);
    await expect(store.reservoirTimeseries({ ...query, names: [name], asOf: '2000-01-01' })).rejects.toThrow(
      /asOf 2000-01-01 is older than the retained history: the oldest snapshot is 1, published 20/,
    );
    await expect(store.reservoirTimeseries({ ...query, names: [name], asOf: '2021-02-30' })).rejects.toMatchObject({
      parameter: 'asOf',
      wire: { parameter: 'as_of' },
    });
    await expect(store.reservoirTimeseries({ ...query, names: [name], asOf: 'yesterday' })).rejects.toMatchObject({ parameter: 'asOf' });
    await store.close();
  });

  it('lists the snapshots with what each changed', async () => {
    const store = await openStore(dir);
    const list = await store.listSnapshots();
    expect(list.map((s) => s.id)).toEqual([1, 2]);
    expect(Date.parse(list[0]!.time)).toBeLessThan(Date.parse(beforeTime));
    expect(Date.parse(list[1]!.time)).toBeGreaterThan(Date.parse(beforeTime));
    // the revision touched one reservoir's nete-volume-calcs rows of 2021: its files are rewritten, nothing else
    const touched = store.manifest.datasets['nete-volume-calcs']!.partitions.flatMap((p) => p.files);
    expect(list[1]).toMatchObject({ files: touched.length, rows: touched.reduce((n, f) => n + f.rows, 0), removed: touched.length });
    expect(list[0]!.files).toBeGreaterThan(touched.length);
    await store.close();
  });
});

describe('vacuumStore retention', () => {
  it('keeps replaced snapshots for the retention time, then retires them', async () => {
    const copy = await tempDir();
    await generateStore(copy, { reservoirs: 2, stations: 1, start: '2021-01-01', end: '2021-01-31', seed: 5 });
    await pause(20);
    const between = new Date().toISOString();
    await pause(20);
    const store = await openStore(copy);
    const [first] = await store.reservoirTimeseries({
      names: [store.manifest.reservoirs.names[0]!],
      datasets: ['lem'],
      variables: ['E_hs'],
      start: '2021-01-10',
      end: '2021-01-10',
    });
    await store.close();
    await ingest(copy, [textSource('rev.json', JSON.stringify([{ ...first, 'E_hs (mm)': 9.5 }]))]);
    const kept = await vacuumStore(copy, { minAgeMs: 0, retainMs: 86_400_000 });
    expect(kept.retained).toBe(1);
    const reader = await openStore(copy);
    const asked = { names: [first!.RES_NAME as string], datasets: ['lem'], variables: ['E_hs'], start: '2021-01-10', end: '2021-01-10' };
    expect(await reader.reservoirTimeseries({ ...asked, asOf: between })).toEqual([first]);
    expect((await reader.reservoirTimeseries(asked))[0]!['E_hs (mm)']).toBe(9.5);
    await reader.close();
    const retired = await vacuumStore(copy, { minAgeMs: 0, retainMs: 0 });
    expect(retired.retained).toBe(0);
    expect(retired.removed.some((p) => p.startsWith('snapshots/'))).toBe(true);
    const later = await openStore(copy);
    expect((await later.listSnapshots()).map((s) => s.id)).toEqual([2]);
    await expect(later.reservoirTimeseries({ ...asked, asOf: between })).rejects.toThrow(/oldest snapshot is 2/);
    await later.close();
  });
});
