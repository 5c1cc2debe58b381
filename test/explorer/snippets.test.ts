// "Copy as TypeScript": the library call a snippet writes answers what the path it copies answers, run against the
// same store (the call's method and options are read from the snippet and made on the store).
import { beforeAll, describe, expect, it } from 'vitest';
import { snippet } from '../../explorer/snippets.js';
import { type TestApp, testApp } from '../server/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
});

const range = 'start_date=2020-01-01&end_date=2020-03-31&variables=NetE';
const paths = [
  `/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MEAD,LAKE%20POWELL&datasets=nete-volume-calcs&${range}`,
  `/timeseries/monthly/reservoirs/daterange?RES_NAMES=LAKE%20MEAD&datasets=nete-volume-calcs&${range}&units=english`,
  `/timeseries/water-year/reservoirs/daterange?RES_NAMES=LAKE%20MEAD&datasets=nete-volume-calcs&${range}`,
  '/timeseries/annual/stations/daterange?STA_NAMES=LAKE%20MEAD_STATION&variables=ATemp&start_date=2020-01-01&end_date=2020-12-31',
  '/timeseries/daily/reservoirs/date?date=2020-06-01&datasets=nete-volume-calcs&variables=NetE',
];

describe('snippet typescript', () => {
  it.each(paths)('calls the library method that answers %s as the path does', async (path) => {
    const code = snippet('typescript', 'http://localhost', path);
    const [, method, options] = /store\.(\w+)\((\{[\s\S]*\})\);/.exec(code)!;
    const call = (app.store as unknown as Record<string, (options: object) => Promise<unknown>>)[method!]!;
    const records = await call.call(app.store, new Function(`return (${options});`)() as object);
    expect(records).toEqual(await (await app.get(path)).json());
  });
});
