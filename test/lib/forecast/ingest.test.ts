// Forecasts ingested from the long CSV and from the API's own answers: statistics made from members equal an
// independent sort-and-interpolate, given statistics are kept (and checked when members come too), a revision is a
// new snapshot and as_of reads the one before, and bad rows are refused naming the file, line and field.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidParameterError, NotFoundError } from '../../../lib/errors.js';
import { forecastOf, ingestForecastValues, parseForecastAnswer, parseForecastCsv } from '../../../lib/forecast/ingest.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { forecastStore } from './fixture.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evap-forecast-ingest-'));
  await generateStore(dir, { reservoirs: 36, stations: 0, start: '2021-05-01', end: '2021-07-31', seed: 11 });
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
// statistics are stored to 4 decimals: half a unit of the last apart at most
const near = (stored: number, exact: number) => expect(Math.abs(stored - exact)).toBeLessThanOrEqual(5e-5 + 1e-9);
const type7 = (values: number[], p: number) => {
  const x = [...values].sort((a, b) => a - b);
  const h = (x.length - 1) * p;
  const lo = Math.floor(h);
  return x[lo]! + (h - lo) * (x[Math.min(lo + 1, x.length - 1)]! - x[lo]!);
};

function csvOf(members: number[][], issued: string, name = 'LAKE ALICE'): string {
  const lines = ['name,issued,valid_date,variable,member_or_statistic,value'];
  members.forEach((member, m) =>
    member.forEach((x, l) => lines.push(`"${name}",${issued},${addDays(issued, l + 1)},E_hs,m${String(m + 1).padStart(2, '0')},${x}`)),
  );
  return `${lines.join('\n')}\n`;
}

describe('ingested forecasts', () => {
  it("from members: their statistics are the members' mean and type-7 quantiles; a revision keeps the old one for as_of", async () => {
    const value = fc.double({ min: 0, max: 20, noNaN: true }).map((v) => Math.round(v * 1e4) / 1e4);
    fc.assert(
      fc.property(fc.array(fc.array(value, { minLength: 28, maxLength: 28 }), { minLength: 3, maxLength: 8 }), (members) => {
        const f = forecastOf(parseForecastCsv(csvOf(members, '2021-06-03'), 'f.csv'), 'test');
        for (let l = 0; l < 28; l++) {
          const x = members.map((m) => m[l]!);
          const at = (s: number) => f.stats.E_hs[s * 28 + l]!;
          near(at(0), x.reduce((a, b) => a + b, 0) / x.length);
          for (const [s, p] of [
            [1, 0.05],
            [3, 0.25],
            [4, 0.5],
            [7, 0.95],
          ] as const)
            near(at(s), type7(x, p));
          for (let s = 2; s < 8; s++) expect(at(s)).toBeGreaterThanOrEqual(at(s - 1));
        }
      }),
      { numRuns: 40 },
    );
    // through the store: ingested, then read back by the daily path
    const members = [Array.from({ length: 28 }, (_, l) => l), Array.from({ length: 28 }, (_, l) => 2 * l), Array.from({ length: 28 }, () => 5)];
    await ingestForecastValues(dir, parseForecastCsv(csvOf(members, '2021-06-03'), 'f.csv'));
    const first = await openStore(dir);
    const daily = await first.forecastDaily({ names: ['LAKE ALICE'], variables: ['E_hs'], issued: '2021-06-03', statistics: ['mean', 'p50'] });
    expect(daily.map((r) => r['E_hs (mm) p50'])).toEqual(Array.from({ length: 28 }, (_, l) => [l, 2 * l, 5].sort((a, b) => a - b)[1]));
    await first.close();
    // a revision: the issue ingested again with other members; the snapshot before still answers the old ones
    const store = await openStore(dir);
    const old = await store.forecastDaily({ names: ['LAKE ALICE'], variables: ['E_hs'], issued: '2021-06-03', leads: '1' });
    const time = new Date().toISOString();
    await store.close();
    await ingestForecastValues(dir, parseForecastCsv(csvOf([Array(28).fill(100), Array(28).fill(102)], '2021-06-03'), 'f.csv'));
    const revised = await openStore(dir);
    expect((await revised.forecastDaily({ names: ['LAKE ALICE'], variables: ['E_hs'], issued: '2021-06-03', leads: '1' }))[0]!['E_hs (mm) mean']).toBe(101);
    expect(await revised.forecastDaily({ names: ['LAKE ALICE'], variables: ['E_hs'], issued: '2021-06-03', leads: '1', asOf: time })).toEqual(old);
    await revised.close();
  }, 120_000);

  it("from the API's own English answer equal the answer they came from", async () => {
    const source: EvapStore = await forecastStore();
    const asked = { names: ['LAKE ESTES'], issued: '2021-06-07', statistics: ['mean', 'p10', 'p90', 'members'], units: 'english' };
    const answer = await source.forecastDaily(asked);
    await ingestForecastValues(dir, parseForecastAnswer(JSON.stringify(answer), 'answer.json'));
    const store = await openStore(dir);
    const again = await store.forecastDaily(asked);
    expect(again).toHaveLength(answer.length);
    again.forEach((r, i) => {
      for (const [k, v] of Object.entries(answer[i]!)) {
        if (typeof v === 'number') expect(Math.abs((r[k] as number) - v), k).toBeLessThanOrEqual(2e-4);
        else expect(r[k], k).toBe(v);
      }
    });
    await store.close();
  }, 120_000);

  it('refuse bad rows naming the file, line and field', async () => {
    const header = 'name,issued,valid_date,variable,member_or_statistic,value';
    const bad = (row: string, field: string, message: RegExp) => {
      try {
        parseForecastCsv(`${header}\n${row}\n`, 'f.csv');
        expect.unreachable(row);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidParameterError);
        expect((error as InvalidParameterError).parameter).toBe(field);
        expect((error as Error).message).toMatch(message);
      }
    };
    bad('LAKE ALICE,2021-06-01,2021-07-01,E_hs,mean,1', 'valid_date', /f\.csv line 2: .*30 days/);
    bad('LAKE ALICE,2021-06-01,2021-06-02,tmmx_c,mean,1', 'variable', /not a forecast variable/);
    bad('LAKE ALICE,2021-06-01,2021-06-02,E_hs,p99,1', 'member_or_statistic', /neither a statistic/);
    bad('LAKE ALICE,2021-06-01,2021-06-02,E_hs,mean,abc', 'value', /not a number/);
    bad('LAKE ALICE,2021-13-01,2021-06-02,E_hs,mean,1', 'issued', /line 2/);
    expect(() => parseForecastCsv('a,b\n1,2\n', 'g.csv')).toThrow(/the header must be/);
    await expect(ingestForecastValues(dir, parseForecastCsv(`${header}\nLAKE NOWHERE,2021-06-01,2021-06-02,E_hs,mean,1\n`, 'f.csv'))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    // statistics given with members must be theirs; percentiles given alone must be ordered
    const members = `${csvOf([Array(28).fill(1), Array(28).fill(3)], '2021-06-04')}LAKE ALICE,2021-06-04,2021-06-05,E_hs,mean,5\n`;
    await expect(ingestForecastValues(dir, parseForecastCsv(members, 'f.csv'))).rejects.toThrow(/members make 2/);
    const unordered = `${header}\nLAKE ALICE,2021-06-04,2021-06-05,E_hs,p10,5\nLAKE ALICE,2021-06-04,2021-06-05,E_hs,p90,4\n`;
    await expect(ingestForecastValues(dir, parseForecastCsv(unordered, 'f.csv'))).rejects.toThrow(/p90 4 is below/);
  });
});
