// The reference a forecast's skill is measured against, checked with references made here by plain loops: the mean of
// the other years' estimates on the same day of the year, for a volume of its depth, times the issue day's area.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestForecastValues, parseForecastCsv } from '../../../lib/forecast/ingest.js';
import { type EstimateVariable, referenceOf } from '../../../lib/forecast/reference.js';
import { type VerificationCase, verify } from '../../../lib/forecast/stats.js';
import { forecastVariables } from '../../../lib/forecast-variables.js';
import { openStore } from '../../../lib/open/store.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import type { WireRecord } from '../../../lib/types.js';

const DAY = 86_400_000;
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY;
const dateOf = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
const depthOf: Record<string, string> = { E_volume: 'E_hs', NetE_volume: 'NetE' };

describe('referenceOf', () => {
  it('gives a volume the skill of its depth when the area is constant over the verified days, whatever it was in other years', () => {
    const years = [2019, 2020, 2021];
    const value = fc.integer({ min: -200, max: 1200 }).map((x) => x / 100); // mm, evaporation or net evaporation
    const area = fc.integer({ min: 1, max: 10_000 }).map((x) => x * 1e5); // m2, 0.1 to 1,000 km2
    const day = fc.record({ depths: fc.tuple(value, value, value), forecast: value });
    fc.assert(
      fc.property(
        fc.constantFrom('E_volume' as const, 'NetE_volume' as const),
        fc.tuple(area, area, area),
        fc.integer({ min: 1, max: 28 }),
        fc.array(day, { minLength: 1, maxLength: 12 }),
        (volume, areas, lead, days) => {
          // days d of June in each year; the verified ones are 2021's, issued `lead` days before
          const depth = new Map<number, number>();
          const volumes = new Map<number, number>();
          const areaOf = new Map<number, number>();
          years.forEach((year, y) => {
            for (let d = dayOf(`${year}-01-01`); d < dayOf(`${year + 1}-01-01`); d++) areaOf.set(d, areas[y]!);
            days.forEach((c, i) => {
              const d = dayOf(`${year}-06-${String(i + 1).padStart(2, '0')}`);
              depth.set(d, c.depths[y]!);
              volumes.set(d, (c.depths[y]! / 1000) * areas[y]!);
            });
          });
          const estimates = new Map<EstimateVariable, Map<number, number>>([
            [volume, volumes],
            [depthOf[volume] as EstimateVariable, depth],
            ['area_m2', areaOf],
          ]);
          const reference = referenceOf(volume, estimates);
          const a = areas[2]!;
          const cases: VerificationCase[] = days.map((c, i) => {
            const valid = dayOf(`2021-06-${String(i + 1).padStart(2, '0')}`);
            const f = (c.forecast / 1000) * a;
            return { mean: f, p10: f, p90: f, observed: (c.depths[2]! / 1000) * a, normal: reference(valid - lead, valid) };
          });
          const skill = verify(cases).skill;
          // the depth's skill by a plain loop: the normal is the mean of 2019's and 2020's depth on the day
          let error = 0;
          let errorNormal = 0;
          for (const c of days) {
            error += Math.abs(c.forecast - c.depths[2]!);
            errorNormal += Math.abs((c.depths[0]! + c.depths[1]!) / 2 - c.depths[2]!);
          }
          if (errorNormal === 0) expect(skill).toBeNull();
          else expect(Math.abs(skill! - (1 - error / errorNormal))).toBeLessThan(1e-9 * Math.max(1, error / errorNormal));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('skill, through the store', () => {
  let dir: string;
  let name: string;
  const estimates = new Map<string, WireRecord>();
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evap-forecast-reference-'));
    await generateStore(dir, { reservoirs: 1, stations: 0, start: '2019-06-01', end: '2021-07-31', seed: 11 });
    const store = await openStore(dir);
    const records = await store.reservoirTimeseries({
      names: ['ALL'],
      datasets: ['rtma', 'res', 'lem', 'nete-volume-calcs'],
      variables: ['pr', 'area_m2', 'E_hs', 'NetE', 'E_volume', 'NetE_volume'],
      start: '2019-06-01',
      end: '2021-07-31',
    });
    await store.close();
    name = records[0]!.RES_NAME as string;
    for (const r of records) estimates.set(r.start_date as string, r);
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const metric = (date: string, variable: string) => {
    const r = estimates.get(date)!;
    const key = Object.keys(r).find((k) => k.startsWith(`${variable} (`))!;
    return r[key] as number;
  };
  // the reference by a plain loop: the other years' mean of the (depth) variable on the day, times the issue day's area
  const referenceHere = (variable: string, issued: string, valid: string) => {
    const depth = depthOf[variable] ?? variable;
    let sum = 0;
    let n = 0;
    for (const [date] of estimates)
      if (date.slice(5) === valid.slice(5) && date.slice(0, 4) !== valid.slice(0, 4)) {
        sum += metric(date, depth);
        n++;
      }
    return depthOf[variable] ? (sum / n / 1000) * metric(issued, 'area_m2') : sum / n;
  };
  // the sum over the issues of |reference - estimate| on the day `lead` after each
  const errorOfReference = (variable: string, lead: number, issues: string[]) => {
    let sum = 0;
    for (const issued of issues) {
      const valid = dateOf(dayOf(issued) + lead);
      sum += Math.abs(referenceHere(variable, issued, valid) - metric(valid, variable));
    }
    return sum;
  };
  // one member per variable and lead, given to 10 decimals
  const ingest = async (issues: string[], value: (variable: string, issued: string, valid: string) => number) => {
    const lines = ['name,issued,valid_date,variable,member_or_statistic,value'];
    for (const issued of issues)
      for (let lead = 1; lead <= 28; lead++) {
        const valid = dateOf(dayOf(issued) + lead);
        for (const v of forecastVariables) lines.push(`"${name}",${issued},${valid},${v},m01,${value(v, issued, valid).toFixed(10)}`);
      }
    await ingestForecastValues(dir, parseForecastCsv(`${lines.join('\n')}\n`, 'f.csv'));
  };
  const verification = async (issues: string[]) => {
    const store = await openStore(dir);
    const records = await store.forecastVerification({ names: [name], start: issues[0], end: issues.at(-1), leads: '1-28' });
    await store.close();
    return records;
  };

  it('is 0 for every variable and lead when the forecast is the reference', async () => {
    // the premise: the lake's area differs between years, so other years' volumes are no reference for this year's
    const change = (a: string, b: string) => Math.abs(metric(a, 'area_m2') / metric(b, 'area_m2') - 1);
    expect(Math.max(change('2021-06-15', '2020-06-15'), change('2020-06-15', '2019-06-15'))).toBeGreaterThan(0.05);
    const issues = ['2021-06-01', '2021-06-04', '2021-06-07', '2021-06-10'];
    await ingest(issues, referenceHere);
    const records = await verification(issues);
    expect(records).toHaveLength(forecastVariables.length * 28);
    for (const r of records) {
      const errorNormal = errorOfReference(r.variable as string, r.lead_days as number, issues);
      const what = `${r.variable} lead ${r.lead_days}`;
      expect(r.n, what).toBe(issues.length);
      // no better than the reference, so no skill: or none to be had where the reference is exact (a dry day's rain)
      if (errorNormal === 0) expect(r.skill, what).toBeNull();
      else expect(Math.abs(r.skill as number), what).toBeLessThan(1e-3);
    }
  }, 120_000);

  it('is 1 for a perfect forecast, against the error of the reference', async () => {
    const issues = ['2021-06-20', '2021-06-23', '2021-06-26'];
    await ingest(issues, (variable, _issued, valid) => metric(valid, variable));
    const records = await verification(issues);
    expect(records).toHaveLength(forecastVariables.length * 28);
    for (const r of records) {
      const errorNormal = errorOfReference(r.variable as string, r.lead_days as number, issues);
      const what = `${r.variable} lead ${r.lead_days}`;
      expect(r.mae, what).toBe(0);
      expect(Math.abs((r.mae_normal as number) - errorNormal / issues.length), what).toBeLessThanOrEqual(1e-4 + 1e-9 * errorNormal);
      if (errorNormal > 0) expect(r.skill, what).toBe(1);
    }
  }, 120_000);
});
