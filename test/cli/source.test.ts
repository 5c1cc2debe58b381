// openSource: a store folder or a server over loopback, the same answers from either; flag mistakes as UsageError.
import { basename, dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../cli/command.js';
import { openSource } from '../../cli/source.js';
import { type EvapStore, openStore } from '../../lib/open/store.js';
import { copySmallStore, tempDir } from '../helpers.js';
import { startTestServer, type TestServer } from '../server/harness.js';
import { testIo } from './harness.js';

const { io } = testIo({ EVAP_API_KEY: '' });

let dir: string;
let store: EvapStore;
let server: TestServer;
beforeAll(async () => {
  dir = await tempDir();
  await copySmallStore(dir);
  store = await openStore(dir);
  server = await startTestServer({ store });
});
afterAll(() => server.close());

describe('openSource', () => {
  it('answers the same from --store DIR and from --from URL --api-key KEY', async () => {
    const local = await openSource({ store: dir }, io);
    const remote = await openSource({ from: server.url, 'api-key': server.key, 'timeout-ms': '5000' }, io);
    try {
      const names = store.manifest.reservoirs.names;
      const query = { names, datasets: ['lem'], start: '2020-12-30', end: '2021-01-02' };
      expect(await remote.source.listReservoirNames()).toEqual(names);
      expect(await local.source.listReservoirNames()).toEqual(names);
      expect(await remote.source.reservoirTimeseries(query)).toEqual(await store.reservoirTimeseries(query));
      expect(await local.source.reservoirTimeseries(query)).toEqual(await store.reservoirTimeseries(query));
    } finally {
      await Promise.all([local.close(), remote.close()]);
    }
  });

  it("takes the key from the run's EVAP_API_KEY when --api-key is absent", async () => {
    const { source } = await openSource({ from: server.url }, testIo({ EVAP_API_KEY: server.key }).io);
    expect(await source.listDatasets()).toEqual(store.listDatasets());
    await expect(openSource({ from: server.url }, io)).rejects.toThrow(new UsageError('--from needs --api-key KEY (or EVAP_API_KEY)'));
  });

  it("reads a relative --store from the run's folder", async () => {
    const { source, close } = await openSource({ store: basename(dir) }, { ...io, cwd: dirname(dir) });
    try {
      expect(await source.listReservoirNames()).toEqual(store.manifest.reservoirs.names);
    } finally {
      await close();
    }
  });

  it('refuses both sources, a URL that is not http(s), and a timeout that is not a positive integer', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ store: dir, from: server.url, 'api-key': 'k' }, 'give --store or --from, not both'],
      [{ from: 'ftp://example.org', 'api-key': 'k' }, '--from must be an http:// or https:// URL; got "ftp://example.org"'],
      [{ from: '127.0.0.1:8080', 'api-key': 'k' }, '--from must be an http:// or https:// URL; got "127.0.0.1:8080"'],
      ...['0', '-5', '1.5', 'soon', '0x10', '1e3', ' 5 ', '5.0'].map((t): [Record<string, string>, string] => [
        { from: server.url, 'api-key': 'k', 'timeout-ms': t },
        '--timeout-ms must be a positive integer',
      ]),
    ];
    for (const [flags, message] of cases) await expect(openSource(flags, io), JSON.stringify(flags)).rejects.toThrow(new UsageError(message));
  });

  it("fails with the store's own error for a folder without a store", async () => {
    await expect(openSource({ store: `${dir}-missing` }, io)).rejects.toThrow(/no store at .*-missing/);
  });
});
