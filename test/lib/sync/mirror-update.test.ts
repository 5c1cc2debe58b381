// mirror --update (issue 13) against a server without GET /changes (the public service: answered 404 here, as FastAPI
// answers a path it lacks): after the server's data move on, a copy fetches again exactly the days it holds as not
// Final, and the newer ones; the requests are counted and their date ranges checked against the copy's own files.
// (Against an evap server, --update asks /changes instead: mirror-changes.test.ts.)
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { mirror } from '../../../lib/sync/mirror.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { tempDir } from '../../helpers.js';
import { startTestServer } from '../../server/harness.js';

const small = { reservoirs: 3, stations: 2, start: '2021-01-01', seed: 9 };

/** A fetch that records the timeseries requests' names and date ranges, and answers /changes as the public service does. */
function recordingFetch() {
  const requests: { path: string; name: string; start: string; end: string; also: string }[] = [];
  const impl: typeof fetch = async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (url.pathname === '/changes') return Response.json({ detail: 'Not Found' }, { status: 404 });
    if (url.pathname.startsWith('/timeseries/')) {
      const p = url.searchParams;
      requests.push({
        path: url.pathname,
        name: p.get('RES_NAMES') ?? p.get('STA_NAMES') ?? '',
        start: p.get('start_date') ?? '',
        end: p.get('end_date') ?? '',
        also: p.get('also_return') ?? '',
      });
    }
    return fetch(input, init);
  };
  return { impl, requests };
}

async function everything(store: EvapStore) {
  const range = { start: '2000-01-01', end: '2030-12-31' };
  return {
    reservoirs: await store.reservoirTimeseries({ names: store.manifest.reservoirs.names, ...range, alsoReturn: ['qflag', 'status'] }),
    stations: await store.stationTimeseries({ names: store.manifest.stations.names, ...range, alsoReturn: ['status'] }),
  };
}

describe('mirror --update', () => {
  it('fetches exactly the days the copy holds as not Final, and the newer ones', async () => {
    const sourceDir = await tempDir();
    await generateStore(sourceDir, { ...small, end: '2021-04-30' });
    const source = await openStore(sourceDir);
    const server = await startTestServer({ store: source });
    const copyDir = await tempDir();
    const full = recordingFetch();
    await mirror(copyDir, { baseUrl: server.url, apiKey: server.key, fetch: full.impl });
    expect(full.requests.every((r) => r.also === (r.path.includes('stations') ? 'status' : 'qflag,status'))).toBe(true);
    expect(await everything(await openStore(copyDir))).toEqual(await everything(source));

    // the copy's first day that is not Final, per name, from its own Parquet files (DuckDB, not the library)
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const firstOpen = async (glob: string, key: string) =>
      new Map(
        (
          await duck.runAndReadAll(
            `SELECT ${key} AS name, strftime(min(date), '%Y-%m-%d') AS first FROM read_parquet('${copyDir}/${glob}', hive_partitioning = true) WHERE status <> 'Final' GROUP BY ALL`,
          )
        )
          .getRowObjectsJson()
          .map((r) => [String(r.name), String(r.first)]),
      );
    const reservoirsOpen = await firstOpen('reservoirs/dataset=*/*/*.parquet', 'RES_NAME');
    const stationsOpen = await firstOpen('stations/station=*/*.parquet', 'station');
    duck.closeSync();
    expect([...reservoirsOpen.values()]).toEqual(['2021-02-27', '2021-02-27', '2021-02-27']); // 60 Provisional + 3 Early days before 04-30

    // the server moves on a month: the last two months are re-run, May is new
    await generateStore(sourceDir, { ...small, end: '2021-05-31' });
    await source.refresh();
    const update = recordingFetch();
    const summary = await mirror(copyDir, { baseUrl: server.url, apiKey: server.key, fetch: update.impl, update: true });
    expect([summary.mode, summary.why, summary.source]).toEqual(['statuses', 'the server has no /changes (the public service)', null]);
    const reservoirRequests = update.requests.filter((r) => r.path.includes('reservoirs'));
    const stationRequests = update.requests.filter((r) => r.path.includes('stations'));
    expect(reservoirRequests.map((r) => [r.name, r.start, r.end]).sort()).toEqual(
      [...reservoirsOpen].map(([name, first]) => [name, first, '2021-05-31']).sort(),
    );
    expect(stationRequests.map((r) => [r.name, r.start]).sort()).toEqual([...stationsOpen].map(([name, first]) => [decodeURIComponent(name), first]).sort());
    expect([reservoirRequests.length, stationRequests.length]).toEqual([3, 2]);
    expect(summary.chunks).toBe(reservoirRequests.length + stationRequests.length);
    expect(summary.records).toBeLessThan((3 + 2) * 100); // about 94 days a name, not the 151 of a full copy
    expect(await everything(await openStore(copyDir))).toEqual(await everything(source));
    await server.close();
  });

  it('copies a server that refuses also_return=status (one not speaking issue 13) with its qflags only', async () => {
    const sourceDir = await tempDir();
    await generateStore(sourceDir, { ...small, end: '2021-02-15' });
    const source = await openStore(sourceDir);
    const server = await startTestServer({ store: source });
    let refusals = 0;
    // as FastAPI would answer an unknown attribute: 422 with a detail list naming also_return
    const older: typeof fetch = async (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      if (url.pathname.startsWith('/timeseries/') && (url.searchParams.get('also_return') ?? '').includes('status')) {
        refusals++;
        return Response.json({ detail: [{ loc: ['query', 'also_return'], msg: 'unknown metadata attribute "status"', type: 'enum' }] }, { status: 422 });
      }
      return fetch(input, init);
    };
    const copyDir = await tempDir();
    const summary = await mirror(copyDir, { baseUrl: server.url, apiKey: server.key, fetch: older, concurrency: 1 });
    expect(summary.rejected).toBe(0);
    expect(refusals).toBe(1); // once: then the run asks without it
    const copy = await openStore(copyDir);
    const range = { start: '2000-01-01', end: '2030-12-31' };
    const names = source.manifest.reservoirs.names;
    expect(await copy.reservoirTimeseries({ names, ...range, alsoReturn: ['qflag'] })).toEqual(
      await source.reservoirTimeseries({ names, ...range, alsoReturn: ['qflag'] }),
    );
    expect((await copy.reservoirTimeseries({ names, ...range, alsoReturn: ['status'] })).every((r) => r.status === null)).toBe(true);
    await server.close();
  });

  it('refuses --update together with --since, and without a copy', async () => {
    const dir = await tempDir();
    await expect(mirror(dir, { baseUrl: 'http://127.0.0.1:9', apiKey: 'k', update: true, since: '2021-01-01' })).rejects.toMatchObject({ parameter: 'since' });
    await expect(mirror(dir, { baseUrl: 'http://127.0.0.1:9', apiKey: 'k', update: true })).rejects.toMatchObject({ parameter: 'update' });
  });
});
