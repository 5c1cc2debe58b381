// The forecast generator: deterministic per seed, physical (members start from the estimates' own state, so their
// error at lead 1 is small and grows with lead, as their spread does), and its stored statistics are those of its
// members: ordered, the mean within their range, recomputed from the members equal, totals summed per member first.
import { describe, expect, it } from 'vitest';
import { forecastReservoir, type IssueEnsemble } from '../../../lib/forecast/generate.js';
import { forecastFromMembers, statisticIndex } from '../../../lib/forecast/issue.js';
import { ensembleStatistics, ensembleStats, percentileOf } from '../../../lib/forecast/stats.js';
import { forecastVariables, MAX_LEAD } from '../../../lib/forecast-variables.js';
import { catalogueReservoirs, createReservoirModel } from '../../../lib/model/index.js';
import { roundValue } from '../../../lib/units.js';

const seed = 20240501;
const spec = catalogueReservoirs(67, seed).find((r) => r.name === 'LAKE MEAD')!;
const origin = 18262 - 90; // 90 days before 2020-01-01, as the store generator starts
const first = 18262 + 160; // 2020-06-09
const last = first + 29;
const run = (s = seed, count = 16) => [...forecastReservoir(spec, s, origin, first, last, count)];
const member = (e: IssueEnsemble, v: (typeof forecastVariables)[number], lead: number) =>
  Array.from({ length: e.count }, (_, m) => e.members[v][m * MAX_LEAD + lead - 1]!);

describe('the forecast generator', () => {
  const issues = run();

  it('is deterministic per seed, and another seed gives other members', () => {
    const again = run();
    expect(again.map((e) => e.members.E_hs)).toEqual(issues.map((e) => e.members.E_hs));
    expect(run(seed + 1)[0]!.members.E_hs).not.toEqual(issues[0]!.members.E_hs);
    expect(issues.map((e) => e.issued)).toEqual(Array.from({ length: 30 }, (_, i) => first + i));
  });

  it("starts from the estimates' state: its error and spread grow with lead, towards the climate's", () => {
    const truth = createReservoirModel(spec, seed, origin).simulate(origin, last + MAX_LEAD);
    const at = (lead: number) => {
      let error = 0;
      let spread = 0;
      for (const e of issues) {
        const s = ensembleStats(member(e, 'E_hs', lead));
        error += Math.abs(s.mean - truth.values.E_hs[e.issued + lead - origin]!);
        spread += s.p90 - s.p10;
      }
      return { error: error / issues.length, spread: spread / issues.length };
    };
    const [one, week, month] = [at(1), at(7), at(28)];
    expect(one.error).toBeLessThan(week.error / 2);
    expect(week.error).toBeLessThan(month.error * 1.2);
    expect(one.spread).toBeLessThan(week.spread);
    expect(one.error).toBeGreaterThan(0); // the members are not the truth itself
  });

  it("keeps the published identities in every member: NetE = E_hs - pr, volumes = depth x the issue day's area", () => {
    for (const e of issues.slice(0, 3))
      for (let i = 0; i < e.count * MAX_LEAD; i++) {
        expect(e.members.NetE[i]).toBeCloseTo(e.members.E_hs[i]! - e.members.pr[i]!, 3);
        if (e.members.E_hs[i]! > 0.5) expect(e.members.E_volume[i]! / e.members.E_hs[i]!).toBeCloseTo(e.members.E_volume[0]! / e.members.E_hs[0]!, 0);
      }
  });

  it('stores statistics that are those of its members: ordered, the mean within range, totals summed per member first', () => {
    for (const e of issues.slice(0, 5)) {
      const f = forecastFromMembers(e.members, e.count, true);
      for (const v of forecastVariables) {
        const running = new Array<number>(e.count).fill(0);
        for (let lead = 1; lead <= MAX_LEAD; lead++) {
          const values = member(e, v, lead);
          values.forEach((x, m) => {
            running[m]! += x;
          });
          const stored = (s: (typeof ensembleStatistics)[number], of = f.stats) => of[v][statisticIndex[s] * MAX_LEAD + lead - 1]!;
          const recomputed = ensembleStats(values);
          for (const s of ensembleStatistics) expect(stored(s)).toBe(roundValue(recomputed[s]));
          const sorted = [...running].sort((a, b) => a - b);
          for (const [s, p] of Object.entries(percentileOf)) {
            const h = (e.count - 1) * p;
            const lo = Math.floor(h);
            const oracle = sorted[lo]! + (h - lo) * (sorted[Math.min(lo + 1, e.count - 1)]! - sorted[lo]!);
            expect(stored(s as keyof typeof percentileOf, f.totals)).toBeCloseTo(oracle, 3);
          }
          const ordered = ensembleStatistics.slice(1).map((s) => stored(s));
          for (let i = 1; i < ordered.length; i++) expect(ordered[i]).toBeGreaterThanOrEqual(ordered[i - 1]!);
          expect(stored('mean')).toBeGreaterThanOrEqual(Math.min(...values) - 1e-4);
          expect(stored('mean')).toBeLessThanOrEqual(Math.max(...values) + 1e-4);
        }
      }
    }
  });
});
