// The query suite over the demo store copied into a bucket on a real S3-compatible server (s3rver on loopback): every
// case of queries.test.ts runs again against the bucket, and a spread of queries answers exactly as from the folder.
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { copyStore } from '../../../lib/sync/copy.js';
import { defaultStoreDir } from '../../../lib/synthetic/demo.js';
import { startTestBucket } from '../../support/bucket.js';

const bucket = await startTestBucket();
Object.assign(process.env, bucket.env);
const location = bucket.location('demo');
await copyStore(defaultStoreDir(), location);
process.env.EVAP_TEST_STORE = location;
await import('./queries.test.js'); // its cases, with its store opened from EVAP_TEST_STORE

const folder = await openStore(defaultStoreDir());
const fromBucket = await openStore(location, { cacheBytes: 0 }); // nothing cached: every query reads the bucket
afterAll(async () => {
  await folder.close();
  await fromBucket.close();
});

describe('a store in a bucket', () => {
  it('is served from the bucket, not the folder', () => {
    expect(fromBucket.root).toBe(location);
    expect(bucket.proxy.requests.some((r) => r.method === 'GET' && r.key.startsWith(`/${bucket.bucket}/demo/reservoirs/`))).toBe(true);
  });

  it('answers every query kind exactly as the folder does', async () => {
    const names = folder.manifest.reservoirs.names;
    const stations = folder.manifest.stations.names;
    const cases: [string, (s: typeof folder) => unknown][] = [
      [
        'range',
        (s) =>
          s.reservoirTimeseries({
            names: names.slice(0, 9),
            datasets: ['rtma', 'res', 'lem', 'nete-volume-calcs'],
            start: '2019-11-20',
            end: '2021-02-03',
            alsoReturn: ['qflag', 'STATE'],
          }),
      ],
      [
        'english',
        (s) => s.reservoirTimeseries({ names: ['LAKE MEAD', 'LAKE POWELL'], datasets: ['lem'], start: '2020-06-01', end: '2020-06-30', units: 'english' }),
      ],
      ['date', (s) => s.reservoirTimeseriesOnDate({ datasets: ['nete-volume-calcs', 'rtma'], date: '2021-07-04' })],
      ['stations', (s) => s.stationTimeseries({ names: stations.slice(0, 5), start: '2015-01-01', end: '2016-12-31' })],
      ['stations date', (s) => s.stationTimeseriesOnDate({ date: '2012-03-04', alsoReturn: ['STATION_TYPE'] })],
      [
        'csv',
        async (s) => {
          let text = '';
          for await (const chunk of s.streamReservoirTimeseries({ names: names.slice(-3), start: '2021-01-01', end: '2021-12-31' }).csv()) text += chunk;
          return text;
        },
      ],
      ['info', (s) => [s.listDatasets(), s.listVariables('lem'), s.listDates('rtma', 'pr'), s.listStationVariables(), s.listStationDates()]],
      ['metadata', (s) => [s.reservoirMetadata(names), s.stationMetadata(stations)]],
      ['partition', (s) => s.readReservoirPartition('res', 2020)],
    ];
    for (const [what, ask] of cases) expect(await ask(fromBucket), what).toEqual(await ask(folder));
  });
});
