// RES_NAMES=ALL (STA_NAMES=ALL or ALL_STATIONS): every reservoir or station over a range, through the app, the same
// records as naming every one, and admitted like any heavy answer.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../lib/open/store.js';
import { createHandler, fetchFrom } from '../../server/app.js';
import { KeyRing } from '../../server/keys/auth.js';
import { evap } from '../cli/harness.js';
import { openSmallStore } from '../helpers.js';
import { testApp } from './harness.js';

const small = await openSmallStore();
const server = await testApp({ store: small.store });
const range = { start_date: '2020-12-28', end_date: '2021-01-03', datasets: 'nete-volume-calcs' };
const get = async (path: string, params: Record<string, string>) => {
  const response = await server.get(`${path}?${new URLSearchParams(params)}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json() as Promise<Record<string, unknown>[]>;
};

describe('RES_NAMES=ALL', () => {
  it('answers every reservoir, as naming each one does, daily and monthly', async () => {
    const named = await get('/timeseries/daily/reservoirs/daterange', { ...range, RES_NAMES: small.names.join(',') });
    expect(new Set(named.map((r) => r.RES_NAME)).size).toBe(small.names.length);
    expect(await get('/timeseries/daily/reservoirs/daterange', { ...range, RES_NAMES: 'ALL' })).toEqual(named);
    expect(await get('/timeseries/monthly/reservoirs/daterange', { ...range, RES_NAMES: 'ALL' })).toEqual(
      await get('/timeseries/monthly/reservoirs/daterange', { ...range, RES_NAMES: small.names.join(',') }),
    );
    expect(await get('/metadata/reservoirs', { RES_NAMES: 'ALL' })).toEqual(await get('/metadata/reservoirs', { RES_NAMES: small.names.join(',') }));
  });

  it('answers every station with ALL or ALL_STATIONS', async () => {
    const stations = { start_date: '2020-12-28', end_date: '2021-01-03' };
    const named = await get('/timeseries/stations/daterange', { ...stations, STA_NAMES: small.stations.join(',') });
    expect(named.length).toBeGreaterThan(0);
    expect(await get('/timeseries/stations/daterange', { ...stations, STA_NAMES: 'ALL' })).toEqual(named);
    expect(await get('/timeseries/stations/daterange', { ...stations, STA_NAMES: 'ALL_STATIONS' })).toEqual(named);
  });

  it('is admitted like any heavy answer: it reads as many rows as every name, and waits for a slot', async () => {
    const query = { datasets: ['nete-volume-calcs'], start: range.start_date, end: range.end_date };
    const every = small.store.streamReservoirTimeseries({ ...query, names: small.names });
    const all = small.store.streamReservoirTimeseries({ ...query, names: ['ALL'] });
    const one = small.store.streamReservoirTimeseries({ ...query, names: [small.names[0]!] });
    expect(all.readRows).toBe(every.readRows);
    expect(all.readRows).toBeGreaterThan(one.readRows);
    // a server where anything reading more than one name's rows is heavy, with no slot: ALL is refused, one name is not
    const gated = createHandler({ store: await openStore(small.dir), keys: KeyRing.fromKeys(['k']), maxHeavy: 0, heavyRows: one.readRows });
    const strict = fetchFrom(gated);
    const ask = (names: string) =>
      strict(`/timeseries/daily/reservoirs/daterange?${new URLSearchParams({ ...range, RES_NAMES: names })}`, { headers: { 'api-key': 'k' } });
    const [allAnswer, oneAnswer] = await Promise.all([ask('ALL'), ask(small.names[0]!)]);
    expect(allAnswer.status).toBe(503);
    expect(oneAnswer.status).toBe(200);
  });

  it('is --names ALL on the command line', async () => {
    const run = await evap([
      'query',
      '--store',
      small.dir,
      '--names',
      'ALL',
      '--datasets',
      'nete-volume-calcs',
      '--start',
      range.start_date,
      '--end',
      range.end_date,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const names = new Set(
      run.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[0]),
    );
    expect([...names].sort()).toEqual([...small.names].sort());
  });
});
