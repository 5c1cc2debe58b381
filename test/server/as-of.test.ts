// as_of over real HTTP: a server asked for the store as it was before a revision answers exactly as a second server
// over a copy of the store taken before that revision (which never saw it), on every timeseries path, GET and POST.
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest, textSource } from '../../lib/ingest/ingest.js';
import { generateStore } from '../../lib/model/generate.js';
import { openStore } from '../../lib/store/store.js';
import { tempDir } from '../helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let revised: TestServer; // the store after the revision, with its history
let before: TestServer; // the copy taken before it
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
  revised = await startTestServer({ store });
  before = await startTestServer({ store: await openStore(old) });
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
afterAll(() => Promise.all([revised?.close(), before?.close()]));

const answer = async (server: TestServer, path: string, init?: RequestInit) => {
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
