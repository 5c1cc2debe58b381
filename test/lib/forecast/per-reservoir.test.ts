// Forecasts loaded for some reservoirs on some days: list_issues answers each reservoir's own first and last issue
// (told by the manifest, or by the files where the manifest cannot say), and a total of a forecast loaded without
// members is refused with a 422 saying the totals need the members, not answered with nulls.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidParameterError } from '../../../lib/errors.js';
import { ingestForecastValues, parseForecastCsv } from '../../../lib/forecast/ingest.js';
import { listForecastIssues } from '../../../lib/forecast/query.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import type { Snapshot } from '../../../lib/store/open-snapshot.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { testApp } from '../../server/harness.js';

let dir: string;
let store: EvapStore;
let names: string[];
// what is loaded: per reservoir (by position), its issue dates, and whether with members (else statistics only)
const loaded: [number, string[], boolean][] = [
  [0, ['2021-06-01', '2021-06-02', '2021-06-03', '2021-06-05'], true],
  [1, ['2021-06-02'], true], // fewer issues than the others
  [2, ['2021-06-03', '2021-06-04'], false], // statistics only: no totals
];
// MEMBERS[m][i]: member m's E_hs of reservoir i at lead 1 is this + 0.1, at lead l this + l / 10
const MEMBERS = [
  [1, 2, 3, 4],
  [2, 2, 5, 1],
  [0.5, 3, 3, 2],
];

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

function csv(): string {
  const lines = ['name,issued,valid_date,variable,member_or_statistic,value'];
  for (const [i, issues, members] of loaded)
    for (const issued of issues)
      for (let lead = 1; lead <= 28; lead++) {
        const at = `"${names[i]}",${issued},${addDays(issued, lead)},E_hs,`;
        if (members) MEMBERS.forEach((m, k) => lines.push(`${at}m0${k + 1},${m[i]! + lead / 10}`));
        else ['mean', 'p05', 'p10', 'p25', 'p50', 'p75', 'p90', 'p95'].forEach((s, k) => lines.push(`${at}${s},${k + 1 + lead / 10}`));
      }
  return `${lines.join('\n')}\n`;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evap-forecast-per-reservoir-'));
  await generateStore(dir, { reservoirs: 4, stations: 0, start: '2021-06-01', end: '2021-06-10', seed: 2 });
  const generated = await openStore(dir);
  names = [...generated.manifest.reservoirs.names];
  await generated.close();
  await ingestForecastValues(dir, parseForecastCsv(csv(), 'f.csv'));
  store = await openStore(dir);
}, 60_000);
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('forecasts per reservoir', () => {
  // the oracle: each reservoir's dates as loaded
  const expected = () =>
    loaded
      .map(([i, issues]) => ({ RES_NAME: names[i]!, start_date: [...issues].sort()[0], end_date: [...issues].sort().at(-1) }))
      .sort((a, b) => (a.RES_NAME < b.RES_NAME ? -1 : 1));

  it('list_issues gives each reservoir its own first and last issue, and leaves out a reservoir without any', async () => {
    const all = await store.listForecastIssues(['ALL']);
    expect(all).toEqual(expected());
    expect(names).toHaveLength(4); // the fourth has no forecast: left out
    expect(await store.listForecastIssues([names[1]!])).toEqual(expected().filter((r) => r.RES_NAME === names[1]));
    expect(await store.listForecastIssues([names[3]!])).toEqual([]);
    await expect(store.listForecastIssues(['NO SUCH LAKE'])).rejects.toThrow(/NO SUCH LAKE/);
  });

  it('list_issues reads the files where the manifest cannot say: written before it kept the reservoirs, or the store has more since', async () => {
    const { snapshot } = store as unknown as { snapshot: Snapshot }; // the store's current snapshot, changed below as older stores had it
    const before = structuredClone(snapshot.manifest);
    for (const month of before.forecasts!) for (const issue of month.issues) delete issue.reservoirs;
    const old = { ...snapshot, manifest: before };
    expect(await listForecastIssues({ snapshot: old }, ['ALL'])).toEqual(expected());
    // a reservoir added since, named between the others: no issue range can say it holds every name in it
    const more = { ...snapshot, reservoirNames: new Set([...snapshot.reservoirNames, `${names[0]} B`, `${names[1]} B`]) };
    expect(await listForecastIssues({ snapshot: more }, ['ALL'])).toEqual(expected());
  });

  it('refuses a total of a forecast loaded without members, as a 422 saying why', async () => {
    const statsOnly = names[2]!;
    const refused = store.forecastTotal({ names: [statsOnly], issued: '2021-06-03', variables: ['E_hs'] });
    await expect(refused).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(refused).rejects.toThrow(/loaded without members/);
    // with another reservoir whose members were loaded, still refused; that one alone is answered from its members
    await expect(store.forecastTotal({ names: [names[0]!, statsOnly], issued: '2021-06-03', variables: ['E_hs'] })).rejects.toThrow(statsOnly);
    const [total] = await store.forecastTotal({ names: [names[0]!], issued: '2021-06-03', variables: ['E_hs'], leads: '1-28', statistics: ['p50'] });
    // the members' sums over 28 leads: member m sums 28 m + 40.6; the median of three is the middle one
    const sums = MEMBERS.map((m) => 28 * m[0]! + 40.6).sort((a, b) => a - b);
    expect(total!['E_hs (mm) p50']).toBeCloseTo(sums[1]!, 3);
    // through the app, FastAPI's shape
    const app = await testApp({ store });
    const response = await app.get(`/forecast/total/reservoirs?${new URLSearchParams({ RES_NAMES: statsOnly, issued: '2021-06-03', variables: 'E_hs' })}`);
    expect(response.status).toBe(422);
    const body = (await response.json()) as { detail: { loc: string[]; msg: string }[] };
    expect(body.detail[0]!.loc).toEqual(['query', 'RES_NAMES']);
    expect(body.detail[0]!.msg).toMatch(/total is made from the members.*loaded without members/);
    // its daily statistics are answered as loaded
    const [daily] = await store.forecastDaily({ names: [statsOnly], issued: '2021-06-03', variables: ['E_hs'], leads: '2', statistics: ['p90'] });
    expect(daily!['E_hs (mm) p90']).toBeCloseTo(7.2, 4);
  });
});
