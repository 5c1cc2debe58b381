// modified_since on the daily paths: after random revisions, the answer asked with a snapshot's id (or its time) holds
// exactly the records that differ from the same query answered as of that snapshot (found here by a plain loop over
// the two whole answers), in JSON and CSV, from the server and the library; its ETag follows the revisions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type EvapStore, openStore } from '../../lib/open/store.js';
import type { WireRecord } from '../../lib/types.js';
import { evap } from '../cli/harness.js';
import { cleanUp, tempDir, writeTinyStore } from '../helpers.js';
import { revise, revision } from '../lib/tables/revise.js';
import { parseCsv, startTestServer, type TestApp, testApp } from './harness.js';

const paths = {
  reservoirs: '/timeseries/daily/reservoirs/daterange?RES_NAMES=ALL&start_date=2020-01-01&end_date=2022-12-31&also_return=status',
  reservoirsOnDate: '/timeseries/daily/reservoirs/date?date=2021-01-01&also_return=status',
  stations: '/timeseries/stations/daterange?STA_NAMES=ALL&start_date=2020-01-01&end_date=2022-12-31',
  stationsOnDate: '/timeseries/stations/date?date=2020-12-31',
};

async function json(app: TestApp, path: string): Promise<WireRecord[]> {
  const response = await app.get(path);
  expect(response.status, path).toBe(200);
  return (await response.json()) as WireRecord[];
}

/** The records of `now` not in `then` with every value the same: a loop over both answers. */
function differing(now: WireRecord[], then: WireRecord[]): WireRecord[] {
  return now.filter((r) => !then.some((t) => Object.keys(r).every((k) => t[k] === r[k]) && Object.keys(t).length === Object.keys(r).length));
}

async function revised(revisions: Parameters<typeof revise>[1][]): Promise<EvapStore> {
  const dir = await tempDir();
  await writeTinyStore(dir);
  for (const [i, r] of revisions.entries()) await revise(dir, r, i);
  const store = await openStore(dir);
  cleanUp(() => store.close());
  return store;
}

describe('modified_since', () => {
  it('answers exactly the records that differ from those of the snapshot it names, by id or by time', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(revision, { minLength: 1, maxLength: 3 }), async (revisions) => {
        const store = await revised(revisions);
        const app = await testApp({ store });
        for (const snapshot of await store.listSnapshots()) {
          for (const path of Object.values(paths)) {
            const expected = differing(await json(app, path), await json(app, `${path}&as_of=${encodeURIComponent(snapshot.time)}`));
            expect(await json(app, `${path}&modified_since=${snapshot.id}`), `${path} since ${snapshot.id}`).toEqual(expected);
            expect(await json(app, `${path}&modified_since=${encodeURIComponent(snapshot.time)}`)).toEqual(expected);
          }
        }
        // the current snapshot: nothing changed since
        expect(await json(app, `${paths.reservoirs}&modified_since=${store.manifest.sequence}`)).toEqual([]);
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  it('gives the same records as CSV, through the library, and under as_of', async () => {
    const store = await revised([
      { kind: 'values', dataset: 'nete-volume-calcs', year: 2021, edits: [{ row: 0, value: 9.5, flag: 2 }] },
      { kind: 'station', values: [5, 6, 7, 8] },
      { kind: 'days', count: 2, value: 4 },
    ]);
    const app = await testApp({ store });
    const since = await json(app, `${paths.reservoirs}&modified_since=1`);
    expect(since.length).toBeGreaterThan(0);
    const csv = parseCsv(await (await app.get(`${paths.reservoirs}&modified_since=1&output_format=csv`)).text());
    expect(csv.length).toBe(since.length);
    expect(csv.map((r) => [r.RES_NAME, r.start_date])).toEqual(since.map((r) => [r.RES_NAME, r.start_date]));
    const query = { names: ['ALL'], start: '2020-01-01', end: '2022-12-31', alsoReturn: ['status'] };
    expect(await store.reservoirTimeseries({ ...query, modifiedSince: '1' })).toEqual(since);
    // as of the second snapshot, since the first: only the value revised by then, no station yet
    const second = (await store.listSnapshots())[1]!;
    const then = await json(app, `${paths.reservoirs}&modified_since=1&as_of=${encodeURIComponent(second.time)}`);
    expect(then.map((r) => [r.RES_NAME, r.start_date, r['NetE (mm)']])).toEqual([['ALPHA LAKE', '2021-01-01', 9.5]]);
    expect(await store.stationTimeseries({ names: ['ALL'], start: '2020-01-01', end: '2022-12-31', modifiedSince: '1', asOf: second.time })).toEqual([]);
    expect(await store.stationTimeseries({ names: ['ALL'], start: '2020-01-01', end: '2022-12-31', modifiedSince: '1' })).toEqual(
      await json(app, `${paths.stations}&modified_since=1`),
    );
    expect(() => store.streamReservoirTimeseries({ ...query, modifiedSince: '1' })).toThrow(/modified since/);
  });

  it('is what evap query --modified-since prints, from the store and from a server', async () => {
    const store = await revised([{ kind: 'days', count: 2, value: 4 }]);
    const server = await startTestServer({ store });
    const flags = ['--names', 'ALL', '--start', '2020-01-01', '--end', '2022-12-31', '--also-return', 'status', '--modified-since', '1', '--format', 'json'];
    const expected = await store.reservoirTimeseries({ names: ['ALL'], start: '2020-01-01', end: '2022-12-31', alsoReturn: ['status'], modifiedSince: '1' });
    expect(expected.map((r) => r.start_date)).toEqual(['2021-01-03', '2021-01-04', '2021-01-03', '2021-01-04']); // the days added
    for (const source of [
      ['--store', store.root],
      ['--from', server.url, '--api-key', server.key],
    ]) {
      const run = await evap(['query', ...source, ...flags]);
      expect([run.code, JSON.parse(run.stdout)], run.stderr).toEqual([0, expected]);
    }
    const none = await evap(['query', '--store', store.root, ...flags.slice(0, -4), '--modified-since', String(store.manifest.sequence)]);
    expect(none.stderr).toContain('no record changed since');
  });

  it('tags the answer by the current snapshot: a revision gives a new tag, and the old one a 200', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const store = await openStore(dir);
    cleanUp(() => store.close());
    const app = await testApp({ store });
    const path = `${paths.reservoirs}&modified_since=1`;
    const first = await app.get(path);
    const tag = first.headers.get('etag')!;
    expect([await first.json(), tag]).toEqual([[], expect.any(String)]);
    expect((await app.get(path, { headers: { 'if-none-match': tag } })).status).toBe(304);
    await revise(dir, { kind: 'values', dataset: 'nete-volume-calcs', year: 2021, edits: [{ row: 1, value: 3, flag: 1 }] }, 0);
    await store.refresh();
    const after = await app.get(path, { headers: { 'if-none-match': tag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(tag);
    expect(((await after.json()) as WireRecord[]).length).toBeGreaterThan(0);
  });

  it('refuses a snapshot no longer retained or a malformed value with 422 naming modified_since', async () => {
    const app = await testApp({ store: await revised([{ kind: 'days', count: 1, value: 1 }]) });
    for (const value of ['99', 'yesterday', '1900-01-01']) {
      const response = await app.get(`${paths.reservoirs}&modified_since=${value}`);
      expect([response.status, ((await response.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc], value).toEqual([422, ['query', 'modified_since']]);
    }
  });
});
