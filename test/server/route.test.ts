// server/route.ts: as_of through the app (no socket): a server asked for the store as it was before a revision answers exactly as a second server
// over a copy of the store taken before that revision (which never saw it), on every timeseries path, GET and POST;
// and a long answer from a past snapshot is sent whole while a vacuum runs in the middle of it.
import { cp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingest, textSource } from '../../lib/ingest/ingest.js';
import { KEPT_VIEWS, openStore } from '../../lib/open/store.js';
import { manifestFiles } from '../../lib/store/manifest.js';
import { generateStore } from '../../lib/synthetic/generate.js';
import { vacuumStore } from '../../lib/writer/vacuum.js';
import { tempDir } from '../helpers.js';
import { type TestApp, testApp } from './harness.js';

let revised: TestApp; // the store after the revision, with its history
let before: TestApp; // the copy taken before it
let beforeTime: string;
let paths: string[];

beforeAll(async () => {
  const dir = await tempDir();
  const now = join(dir, 'now');
  const old = join(dir, 'old');
  await generateStore(now, { reservoirs: 3, stations: 2, start: '2021-01-01', end: '2021-03-31', seed: 5 });
  await cp(now, old, { recursive: true });
  await new Promise((resolve) => setTimeout(resolve, 20));
  beforeTime = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const store = await openStore(now);
  const [reservoir] = store.manifest.reservoirs.names;
  const [station] = store.manifest.stations.names;
  const [day] = await store.reservoirTimeseries({ names: [reservoir!], datasets: ['lem'], variables: ['E_hs'], start: '2021-03-15', end: '2021-03-15' });
  const [stationDay] = await store.stationTimeseries({ names: [station!], variables: ['ATemp'], start: '2021-03-15', end: '2021-03-15' });
  const atemp = Object.keys(stationDay!).find((k) => k.startsWith('ATemp'))!;
  const summary = await ingest(now, [
    textSource('revision.json', JSON.stringify([{ ...day, 'E_hs (mm)': 123.25 }])),
    textSource('station.json', JSON.stringify([{ ...stationDay, [atemp]: -40 }])),
  ]);
  expect(summary.filesApplied).toBe(2);
  await store.refresh();
  revised = await testApp({ store });
  before = await testApp({ store: await openStore(old) });
  const res = `RES_NAMES=${encodeURIComponent(reservoir!)}&datasets=lem&variables=E_hs`;
  const sta = `STA_NAMES=${encodeURIComponent(station!)}&variables=ATemp`;
  const range = 'start_date=2021-03-01&end_date=2021-03-31';
  paths = [
    `/timeseries/daily/reservoirs/daterange?${res}&${range}`,
    '/timeseries/daily/reservoirs/date?date=2021-03-15&datasets=lem&variables=E_hs',
    `/timeseries/stations/daterange?${sta}&${range}`,
    '/timeseries/stations/date?date=2021-03-15&variables=ATemp',
    ...['monthly', 'annual', 'water-year'].flatMap((interval) => [
      `/timeseries/${interval}/reservoirs/daterange?${res}&${range}`,
      `/timeseries/${interval}/stations/daterange?${sta}&${range}`,
    ]),
    `/timeseries/monthly/reservoirs/daterange?${res}&${range}&compare_to=normal`,
    `/timeseries/normals/reservoirs?${res}`,
    `/timeseries/normals/stations?${sta}&period=day`,
  ];
});

const answer = async (server: TestApp, path: string, init?: RequestInit) => {
  const response = await server.get(path, init);
  return { status: response.status, text: await response.text() };
};

describe('as_of', () => {
  it('answers every timeseries path as a copy of the store taken then does, and the revision shows without it', async () => {
    for (const path of paths) {
      const then = await answer(before, path);
      expect(then.status, path).toBe(200);
      expect(await answer(revised, `${path}&as_of=${beforeTime}`), path).toEqual(then);
      expect((await answer(revised, path)).text, path).not.toBe(then.text); // else the comparison above proves nothing
      expect(await answer(revised, `${path}&as_of=${new Date().toISOString()}`), path).toEqual(await answer(revised, path));
    }
  });

  it('is taken from the body of a POST twin as well', async () => {
    const path = paths[0]!;
    const query = Object.fromEntries(new URLSearchParams(path.slice(path.indexOf('?') + 1)));
    const post = await answer(revised, path.slice(0, path.indexOf('?')), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...query, as_of: beforeTime }),
    });
    expect(post).toEqual(await answer(before, path));
  });

  it('takes a date as the end of that day, UTC', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(await answer(revised, `${paths[0]}&as_of=${today}`)).toEqual(await answer(revised, paths[0]!)); // the revision is from today
  });

  it('is not a parameter of the other paths', async () => {
    for (const path of ['/info/list_datasets', `/metadata/reservoirs`])
      expect(await answer(revised, `${path}?as_of=2001-01-01`), path).toEqual(await answer(revised, path));
  });

  it('refuses an as_of before the retained history with a 422 naming the oldest snapshot, and a malformed one', async () => {
    const early = await revised.get(`/timeseries/stations/date?date=2021-03-01&as_of=2001-01-01`);
    expect(early.status).toBe(422);
    expect(JSON.stringify(await early.json())).toMatch(/oldest snapshot is 1/);
    for (const bad of ['soon', '2021-02-30', '2021-03-01T25:00:00Z'])
      expect((await revised.get(`/timeseries/stations/date?date=2021-03-01&as_of=${bad}`)).status, bad).toBe(422);
  });
});

describe('as_of while a vacuum runs', () => {
  it('sends a long answer from a past snapshot byte-equal to the same answer taken before, though a vacuum ran mid-way and its view left the cache', async () => {
    const dir = await tempDir();
    const firstYear = 2006;
    await generateStore(dir, { reservoirs: 1, stations: 1, start: `${firstYear}-01-01`, end: '2021-12-31', seed: 9 });
    const first = await openStore(dir);
    const [name] = first.manifest.reservoirs.names;
    const firstFiles = new Set(manifestFiles(first.manifest).map((f) => f.path));
    // every dataset over 16 years, one partition file per dataset and year: about 3.5 MB of JSON, streamed (not whole)
    // and read year by year, so an answer paused after its first chunk has most of its files still to read
    const path = `/timeseries/daily/reservoirs/daterange?RES_NAMES=${encodeURIComponent(name!)}&datasets=${first.listDatasets().join(',')}&start_date=${firstYear}-01-01&end_date=2021-12-31`;
    const reference = await testApp({ store: first });
    const before = await (await reference.get(path)).text();
    await first.close();
    expect(before.length).toBeGreaterThan(3_000_000);
    await pause(20);
    const beforeTime = new Date().toISOString();
    await pause(20);
    // a revision of every January 1st: every partition file is rewritten, so the old snapshot's files are its own
    const januaries = (JSON.parse(before) as Record<string, unknown>[]).filter((r) => (r.start_date as string).endsWith('-01-01'));
    const revised = januaries.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? v + 1 : v])));
    await ingest(dir, [textSource('januaries.json', JSON.stringify(revised))]);
    // more snapshots, each asked once while the long answer is paused: enough to push its view out of the cache
    const later: string[] = [];
    for (let i = 0; i < KEPT_VIEWS; i++) {
      await ingest(dir, [textSource(`last-${i}.json`, JSON.stringify([{ ...revised.at(-1), 'NetE (mm)': i }]))]);
      await pause(20);
      later.push(new Date().toISOString());
      await pause(20);
    }
    const app = await testApp({ store: await openStore(dir) });
    // a client that gives up mid-way ends its use of the view too (else the lease would outlive it, checked below)
    const given = (await app.get(`${path}&as_of=${beforeTime}`)).body!.getReader();
    await given.read();
    await given.cancel();
    const response = await app.get(`${path}&as_of=${beforeTime}`);
    expect(response.status).toBe(200);
    // read one chunk, then nothing: the answer's stream pulls no further than its queue, so it waits mid-way
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [(await reader.read()).value!];
    for (const time of later) expect((await app.get(`${path.replace(`${firstYear}-01-01`, '2021-01-01')}&as_of=${time}`)).status).toBe(200);
    const during = await vacuumStore(dir, { minAgeMs: 0 });
    expect(during.removed.filter((p) => p.endsWith('.parquet')).length).toBeGreaterThan(0); // the revision's 2021 files: nobody holds it
    expect(during.removed.filter((p) => firstFiles.has(p))).toEqual([]);
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(Buffer.concat(chunks).toString()).toBe(before);
    // the answer over and its view out of the cache, its lease is gone and the next vacuum retires its files
    await expect.poll(async () => (await readdir(join(dir, 'readers'))).filter((n) => n.startsWith('1.'))).toEqual([]);
    const after = await vacuumStore(dir, { minAgeMs: 0 });
    // its partition files, and of its date-major copies (13 months a dataset) January 2021's, the one month whose rows
    // the revision of every January 1st changed (the others are kept by the snapshots after it); and their indexes
    expect(after.removed.filter((p) => firstFiles.has(p)).length).toBe(2 * (4 * (2022 - firstYear) + 4));
    await app.store.close();
  }, 120_000); // about 7 s alone on 2 idle cores; it writes six snapshots
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
