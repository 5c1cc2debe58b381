import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingest, textSource } from '../../../lib/ingest/ingest.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { mirror, PROGRESS_FILE } from '../../../lib/sync/mirror.js';
import { serveSmallStore, tempDir } from '../../helpers.js';
import { startTestServer } from '../../server/harness.js';

let sourceDir: string;
let source: EvapStore;
let server: { url: string; key: string };

beforeAll(async () => {
  ({ dir: sourceDir, store: source, server } = await serveSmallStore());
});

/** Every answer of a store that a mirror must reproduce. */
async function everything(store: EvapStore) {
  const names = store.manifest.reservoirs.names;
  const stations = store.manifest.stations.names;
  const range = { start: '2000-01-01', end: '2030-12-31' };
  return {
    names,
    stations,
    reservoirMetadata: store.reservoirMetadata(names),
    stationMetadata: store.stationMetadata(stations),
    datasets: store.listDatasets(),
    dates: store.listDatasets().map((d) => store.listVariables(d).map((v) => store.listDates(d, v.api_name))),
    stationVariables: stations.map((s) => store.listStationVariables([s])),
    stationDates: stations.map((s) => store.listStationDates([s])),
    reservoirs: await store.reservoirTimeseries({ names, ...range, alsoReturn: ['qflag'] }),
    stationRecords: await store.stationTimeseries({ names: stations, ...range }),
    onDate: await store.reservoirTimeseriesOnDate({ date: '2021-01-01' }),
  };
}

/** A fetch that counts timeseries requests and can fail some with 503 or abort after a number of them. */
function countingFetch(options: { abortAfter?: number; controller?: AbortController; flaky?: number } = {}) {
  const counts = { timeseries: 0, failed: 0 };
  let seed = 1;
  const impl: typeof fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.includes('/timeseries/')) {
      counts.timeseries++;
      if (options.abortAfter !== undefined && counts.timeseries > options.abortAfter) options.controller!.abort(new Error('interrupted'));
      seed = (seed * 16807) % 2147483647;
      if (options.flaky && seed / 2147483647 < options.flaky) {
        counts.failed++;
        return new Response('{"detail":"try again"}', { status: 503, headers: { 'retry-after': '0' } });
      }
    }
    return fetch(input, init);
  };
  return { impl, counts };
}

describe('mirror', () => {
  it('copies every record of a server into an empty store', async () => {
    const dir = await tempDir();
    const summary = await mirror(dir, { baseUrl: server.url, apiKey: server.key });
    expect(summary).toMatchObject({ rejected: 0, replaced: 0, resumed: 0 });
    const copy = await openStore(dir);
    expect(await everything(copy)).toEqual(await everything(source));
    expect(JSON.parse(await readFile(join(dir, PROGRESS_FILE), 'utf8'))).toMatchObject({ complete: true });
  });

  it('resumes an interrupted copy without refetching committed units, retrying 503s', async () => {
    const dir = await tempDir();
    const controller = new AbortController();
    const first = countingFetch({ abortAfter: 6, controller });
    const options = { baseUrl: server.url, apiKey: server.key, stationsPerUnit: 1, concurrency: 2, backoffMs: 1 };
    await expect(mirror(dir, { ...options, fetch: first.impl, signal: controller.signal })).rejects.toThrow();
    const progress = JSON.parse(await readFile(join(dir, PROGRESS_FILE), 'utf8'));
    expect(progress.complete).toBe(false);
    expect(progress.done).toContain('metadata');
    // what was committed is a whole snapshot that opens and answers
    const partial = await openStore(dir);
    expect(partial.manifest.reservoirs.names).toEqual(source.manifest.reservoirs.names);

    const second = countingFetch({ flaky: 0.3 });
    const summary = await mirror(dir, { ...options, fetch: second.impl });
    expect(summary.resumed).toBe(progress.done.length);
    const all = source.manifest.reservoirs.names.length * 2 + source.manifest.stations.names.length;
    expect(second.counts.timeseries - second.counts.failed).toBeLessThan(all);
    expect(second.counts.failed).toBeGreaterThan(0);
    expect(await everything(await openStore(dir))).toEqual(await everything(source));
  });

  it('copies only dates since a day, replacing revised ones and keeping the files of earlier years', async () => {
    const dir = await tempDir();
    await mirror(dir, { baseUrl: server.url, apiKey: server.key });
    const before = await openStore(dir);
    // the source revises the last days (provisional values change)
    const revisedDir = join(await tempDir(), 'revised');
    await cp(sourceDir, revisedDir, { recursive: true });
    const [name] = source.manifest.reservoirs.names;
    const revision = ['2021-01-03', '2021-01-04'].map((d) => ({ RES_NAME: name, start_date: d, end_date: d, 'NetE (mm)': 42 }));
    await ingest(revisedDir, [textSource('revision.json', JSON.stringify(revision))]);
    const revised = await openStore(revisedDir);
    const revisedServer = await startTestServer({ store: revised });
    const summary = await mirror(dir, { baseUrl: revisedServer.url, apiKey: revisedServer.key, since: '2021-01-03' });
    expect(summary.added).toBe(0);
    expect(summary.replaced).toBeGreaterThan(0);
    const after = await openStore(dir);
    expect(await everything(after)).toEqual(await everything(revised));
    for (const [dataset, entry] of Object.entries(before.manifest.datasets)) {
      const old2020 = entry.partitions.find((p) => p.year === 2020)!;
      expect(
        after.manifest.datasets[dataset]!.partitions.find((p) => p.year === 2020),
        dataset,
      ).toEqual(old2020);
    }
  });
});
