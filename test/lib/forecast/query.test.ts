// The forecast operations of the library against independent computations over their own other answers: `lead`
// equals `daily` of the matching issue; totals equal each member's sum, then type-7 quantiles; verification equals
// plain loops over the lead answers, the estimates and a normal made here; English units are metric x factor.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidParameterError, NotFoundError } from '../../../lib/errors.js';
import type { EvapStore } from '../../../lib/open/store.js';
import type { WireRecord } from '../../../lib/types.js';
import { fixtureNames, forecastStore } from './fixture.js';

let store: EvapStore;
beforeAll(async () => {
  store = await forecastStore();
}, 120_000);

const issues = Array.from({ length: 10 }, (_, i) => `2021-06-${String(i + 1).padStart(2, '0')}`);
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const type7 = (values: number[], p: number) => {
  const x = [...values].sort((a, b) => a - b);
  const h = (x.length - 1) * p;
  const lo = Math.floor(h);
  return x[lo]! + (h - lo) * (x[Math.min(lo + 1, x.length - 1)]! - x[lo]!);
};

describe('forecast answers', () => {
  it('default to the latest issue, every lead, mean,p10,p50,p90, keys "<variable> (<unit>) <statistic>"', async () => {
    const records = await store.forecastDaily({ names: ['LAKE ALICE'], variables: ['E_volume'] });
    expect(records).toHaveLength(28);
    expect(Object.keys(records[0]!)).toEqual([
      'RES_NAME',
      'issued',
      'valid_date',
      'lead_days',
      'E_volume (m3) mean',
      'E_volume (m3) p10',
      'E_volume (m3) p50',
      'E_volume (m3) p90',
    ]);
    expect(records.map((r) => r.lead_days)).toEqual(Array.from({ length: 28 }, (_, i) => i + 1));
    expect(records.every((r) => r.issued === '2021-06-10' && r.valid_date === addDays('2021-06-10', r.lead_days as number))).toBe(true);
  });

  it("carry the reservoirs' attributes asked (also_return), on the daily and the totals answers, and none when none is asked", async () => {
    const rows = new Map(store.metadataRows('reservoirs').map((r) => [r.RES_NAME, r]));
    for (const records of [
      await store.forecastDaily({ names: fixtureNames, variables: ['E_hs'], alsoReturn: ['STATE', 'LAT'] }),
      await store.forecastTotal({ names: fixtureNames, variables: ['E_hs'], alsoReturn: ['STATE', 'LAT'] }),
    ]) {
      expect(records.length).toBeGreaterThan(0);
      for (const r of records) expect([r.STATE, r.LAT]).toEqual([rows.get(r.RES_NAME)!.STATE, rows.get(r.RES_NAME)!.LAT]);
    }
    const plain = await store.forecastTotal({ names: fixtureNames, variables: ['E_hs'] });
    expect(plain.every((r) => !('STATE' in r))).toBe(true);
  });

  it('by lead equal the daily answers of the issue lead days before', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 28 }), fc.constantFrom(...fixtureNames), fc.boolean(), async (lead, name, english) => {
        const units = english ? 'english' : 'metric';
        const statistics = ['mean', 'p05', 'p95'];
        const byLead = await store.forecastLead({ names: [name], lead: String(lead), statistics, units });
        expect(byLead.map((r) => r.issued)).toEqual(issues);
        for (const r of byLead) {
          const [daily] = await store.forecastDaily({ names: [name], issued: r.issued as string, leads: String(lead), statistics, units });
          const forecastKeys = Object.keys(daily!).filter((k) => / (mean|p05|p95)$/.test(k));
          expect(forecastKeys).toHaveLength(15);
          for (const k of forecastKeys) expect(r[k], k).toBe(daily![k]);
          expect(r.valid_date).toBe(daily!.valid_date);
        }
      }),
      { numRuns: 6 },
    );
  });

  it('carry the day\'s estimate as "observed" where the store has it', async () => {
    const byLead = await store.forecastLead({ names: ['LAKE ESTES'], variables: ['NetE', 'pr'], lead: '28' });
    const estimates = await store.reservoirTimeseries({
      names: ['LAKE ESTES'],
      datasets: ['nete-volume-calcs', 'rtma'],
      variables: ['NetE', 'pr'],
      start: '2021-06-29',
      end: '2021-07-08',
    });
    expect(byLead.map((r) => r['NetE (mm) observed'])).toEqual(estimates.map((r) => r['NetE (mm)']));
    expect(byLead.map((r) => r['pr (mm) observed'])).toEqual(estimates.map((r) => r['pr (mm)']));
  });

  it('carry the estimate in English units as the timeseries answer gives it: converted from the stored value, rounded once', async () => {
    const byLead = await store.forecastLead({ names: ['LAKE ESTES'], variables: ['E_volume', 'E_hs'], lead: '28', units: 'english' });
    const estimates = await store.reservoirTimeseries({
      names: ['LAKE ESTES'],
      datasets: ['nete-volume-calcs', 'lem'],
      variables: ['E_volume', 'E_hs'],
      start: '2021-06-29',
      end: '2021-07-08',
      units: 'english',
    });
    expect(byLead).toHaveLength(estimates.length);
    for (const key of ['E_volume (acre-ft)', 'E_hs (in)']) expect(byLead.map((r) => r[`${key} observed`])).toEqual(estimates.map((r) => r[key]));
  });

  it('in English units are the metric values times the factor', async () => {
    const metric = await store.forecastDaily({ names: fixtureNames, variables: ['E_hs', 'E_volume'], issued: '2021-06-03', statistics: ['p25', 'p75'] });
    const english = await store.forecastDaily({
      names: fixtureNames,
      variables: ['E_hs', 'E_volume'],
      issued: '2021-06-03',
      statistics: ['p25', 'p75'],
      units: 'english',
    });
    for (let i = 0; i < metric.length; i++) {
      for (const s of ['p25', 'p75']) {
        expect(english[i]![`E_hs (in) ${s}`]).toBeCloseTo((metric[i]![`E_hs (mm) ${s}`] as number) / 25.4, 3);
        expect(english[i]![`E_volume (acre-ft) ${s}`]).toBeCloseTo((metric[i]![`E_volume (m3) ${s}`] as number) / 1233.48183754752, 3);
      }
    }
  });

  it('of totals are the members summed, then type-7 quantiles, for any leads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 28 }), fc.integer({ min: 0, max: 27 }), fc.integer({ min: 5, max: 9 }), async (a, span, day) => {
        const from = a;
        const to = Math.min(28, a + span);
        const issued = issues[day]!; // an issue with members
        const daily = await store.forecastDaily({ names: ['LAKE ALICE'], variables: ['E_volume'], issued, statistics: ['members'] });
        const sums = Array.from({ length: 12 }, (_, m) => {
          const key = `E_volume (m3) m${String(m + 1).padStart(2, '0')}`;
          return daily.filter((r) => (r.lead_days as number) >= from && (r.lead_days as number) <= to).reduce((s, r) => s + (r[key] as number), 0);
        });
        const [total] = await store.forecastTotal({
          names: ['LAKE ALICE'],
          variables: ['E_volume'],
          issued,
          leads: `${from}-${to}`,
          statistics: ['mean', 'p10', 'p90'],
        });
        // the members are stored rounded, the statistics rounded once more: 4 decimals apart at most
        expect(Math.abs((total!['E_volume (m3) p10'] as number) - type7(sums, 0.1))).toBeLessThan(1e-3);
        expect(Math.abs((total!['E_volume (m3) p90'] as number) - type7(sums, 0.9))).toBeLessThan(1e-3);
        expect(Math.abs((total!['E_volume (m3) mean'] as number) - sums.reduce((s, x) => s + x, 0) / 12)).toBeLessThan(1e-3);
      }),
      { numRuns: 8 },
    );
  });

  it("verify against plain loops over the lead answers, the estimates and the other years' day-of-year mean", async () => {
    const lead = 5;
    const [verification] = (await store.forecastVerification({ names: ['LAKE ESTES'], variables: ['E_hs'], leads: String(lead) })) as WireRecord[];
    const byLead = await store.forecastLead({ names: ['LAKE ESTES'], variables: ['E_hs'], lead: String(lead), statistics: ['mean', 'p10', 'p90'] });
    const estimates = await store.reservoirTimeseries({
      names: ['LAKE ESTES'],
      datasets: ['lem'],
      variables: ['E_hs'],
      start: '2019-06-01',
      end: '2021-07-31',
    });
    const normal = (date: string) => {
      const same = estimates.filter((r) => (r.start_date as string).slice(5) === date.slice(5) && (r.start_date as string).slice(0, 4) !== date.slice(0, 4));
      return same.reduce((s, r) => s + (r['E_hs (mm)'] as number), 0) / same.length;
    };
    let abs = 0;
    let bias = 0;
    let square = 0;
    let inside = 0;
    let absNormal = 0;
    for (const r of byLead) {
      const y = r['E_hs (mm) observed'] as number;
      const e = (r['E_hs (mm) mean'] as number) - y;
      abs += Math.abs(e);
      bias += e;
      square += e * e;
      if ((r['E_hs (mm) p10'] as number) <= y && y <= (r['E_hs (mm) p90'] as number)) inside++;
      absNormal += Math.abs(normal(r.valid_date as string) - y);
    }
    const n = byLead.length;
    expect(verification!.n).toBe(n);
    expect(verification!.mae).toBeCloseTo(abs / n, 3);
    expect(verification!.bias).toBeCloseTo(bias / n, 3);
    expect(verification!.rmse).toBeCloseTo(Math.sqrt(square / n), 3);
    expect(verification!.coverage_80).toBeCloseTo(inside / n, 3);
    expect(verification!.mae_normal).toBeCloseTo(absNormal / n, 3);
    expect(verification!.skill).toBeCloseTo(1 - abs / absNormal, 3);
    // CRPS over the issues whose members are kept, by the pair formula over the members' answers
    const kept = issues.slice(4);
    let crps = 0;
    for (const issued of kept) {
      const [d] = await store.forecastDaily({ names: ['LAKE ESTES'], variables: ['E_hs'], issued, leads: String(lead), statistics: ['members'] });
      const x = Object.entries(d!)
        .filter(([k]) => / m\d\d$/.test(k))
        .map(([, v]) => v as number);
      const y = byLead.find((r) => r.issued === issued)!['E_hs (mm) observed'] as number;
      let a = 0;
      let b = 0;
      for (const xi of x) a += Math.abs(xi - y);
      for (const xi of x) for (const xj of x) b += Math.abs(xi - xj);
      crps += a / x.length - b / (2 * x.length * x.length);
    }
    expect(verification!.n_crps).toBe(kept.length);
    expect(verification!.crps).toBeCloseTo(crps / kept.length, 3);
  });

  it('list the issues and the variables', async () => {
    // per reservoir with forecasts (the fixture's two), the first and last issue the fixture generated
    expect(await store.listForecastIssues()).toEqual(fixtureNames.map((RES_NAME) => ({ RES_NAME, start_date: '2021-06-01', end_date: '2021-06-10' })));
    expect(store.listForecastVariables().map((v) => `${v.api_name} ${v.units_metric} ${v.units_english}`)).toEqual([
      'E_hs mm in',
      'NetE mm in',
      'E_volume m3 acre-ft',
      'NetE_volume m3 acre-ft',
      'pr mm in',
    ]);
  });
});

describe('forecast errors', () => {
  const refused = async (make: () => Promise<unknown>, parameter: string, message: RegExp) => {
    const error = await make().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as InvalidParameterError).parameter).toBe(parameter);
    expect((error as Error).message).toMatch(message);
  };
  it('name the parameter and what is allowed', async () => {
    await refused(() => store.forecastDaily({ leads: '0' }), 'leads', /from 1 to 28/);
    await refused(() => store.forecastDaily({ leads: '1-29' }), 'leads', /from 1 to 28/);
    await refused(() => store.forecastDaily({ leads: '7-3' }), 'leads', /range/);
    await refused(() => store.forecastLead({ lead: '1.5' }), 'lead', /whole number/);
    await refused(() => store.forecastDaily({ variables: ['E_volme'] }), 'variables', /did you mean "E_volume"/);
    await refused(() => store.forecastDaily({ statistics: ['p99'] }), 'statistics', /allowed: mean, p05/);
    await refused(() => store.forecastDaily({ issued: '2021-02-30' }), 'issued', /not a calendar date/);
    await refused(() => store.forecastDaily({ issued: '2021-06-01', statistics: ['members'] }), 'statistics', /were not kept/);
    await refused(() => store.forecastTotal({ issued: '2021-06-01', leads: '8-14' }), 'leads', /ask leads 1-14/);
    await refused(() => store.forecastLead({ start: '2021-07-01', end: '2021-06-01' }), 'end', /^end 2021-06-01 is before start 2021-07-01/); // the options written
    await expect(store.forecastDaily({ names: ['LAKE MAED'] })).rejects.toBeInstanceOf(NotFoundError);
  });
  it('refuse names alike when listing the variables, answering the forecasts and the metadata', async () => {
    const errorOf = async (make: () => unknown) => {
      try {
        await make();
      } catch (error) {
        return [(error as Error).name, (error as Error).message];
      }
      return 'answered';
    };
    for (const names of [['LAKE MAED'], ['LAKE ALICE', 'MEAD'], ['ALL'], ['LAKE ESTES']]) {
      const listing = await errorOf(() => store.listForecastVariables(names));
      expect(await errorOf(() => store.forecastDaily({ names })), names.join()).toEqual(listing);
      expect(await errorOf(() => store.reservoirMetadata(names)), names.join()).toEqual(listing);
      if (names[0] === 'LAKE MAED') expect(listing).toEqual(['NotFoundError', expect.stringMatching(/^reservoir not found: "LAKE MAED"/)]);
    }
  });
  it('an issue date with no forecast is an empty answer, as a date range outside the data is', async () => {
    expect(await store.forecastDaily({ issued: '2020-01-01' })).toEqual([]);
  });
});
