// The explorer's forecast in headless Chromium over a real server on loopback: for the selected reservoir, the fan of
// the latest issue drawn with the API's own numbers, the skill by lead as the verification path gives it, and the map
// coloured by every reservoir's forecast 28-day total. `EVAP_SCREENSHOTS=docs/screenshots` writes the fan's picture.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExplorer } from '../../scripts/build-explorer.js';
import { createHandler } from '../../server/app.js';
import { KeyRing } from '../../server/keys/auth.js';
import { tempDir } from '../helpers.js';
import { chromiumMissing, launchChromium, scratchShots } from './browser.js';
import { demoStore, startTestServer } from './harness.js';

const missing = chromiumMissing('the explorer forecast browser test');
const shots = process.env.EVAP_SCREENSHOTS ?? scratchShots;
const key = 'explorer-forecast-key';
type Records = Record<string, string | number | null>[];
type Axis = { label?: string; font: [string, number]; labelFont: [string, number]; _values: string[]; _size: number; gap: number; ticks: { size: number } };
type Plotted = { uplot?: { data: (number | null)[][]; series: { label?: string }[]; axes: Axis[]; bbox: { height: number } } };
const type7 = (values: number[], p: number) => {
  const x = [...values].sort((a, b) => a - b);
  const h = (x.length - 1) * p;
  const lo = Math.floor(h);
  return x[lo]! + (h - lo) * (x[Math.min(lo + 1, x.length - 1)]! - x[lo]!);
};
// the numbers of "... median 16,500 m3 (10th–90th percentile of the members 15,000–18,600)"
const totalIn = (text: string, unit: string) => {
  const m = new RegExp(`median ([\\d,.]+) ${unit} \\(10th–90th percentile of the members ([\\d,.]+)–([\\d,.]+)\\)`).exec(text);
  return m ? m.slice(1).map((x) => Number(x.replaceAll(',', ''))) : undefined;
};

describe.skipIf(missing)('the explorer forecast in Chromium', () => {
  let url: string;
  let close: () => Promise<void>;
  let browser: BrowserContext;
  let forecasted: string; // a reservoir the demo store forecasts
  const api = async (path: string) => (await fetch(`${url}${path}`, { headers: { 'api-key': key } })).json() as Promise<Records>;

  beforeAll(async () => {
    const explorerDir = await buildExplorer(await tempDir('evap-explorer-'));
    const store = await demoStore();
    ({ url, close } = await startTestServer({ handler: createHandler({ store, keys: KeyRing.fromKeys([key]), explorerDir, logError: () => {} }) }));
    forecasted = String((await api('/forecast/total/reservoirs?RES_NAMES=ALL&variables=E_volume&statistics=p50'))[0]!.RES_NAME);
    await mkdir(shots, { recursive: true });
    browser = await launchChromium({ viewport: { width: 1280, height: 1000 } });
  });
  afterAll(async () => {
    await browser?.close();
    await close?.();
  });

  async function openAt(hash: string) {
    const page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}/${hash}`);
    await page.locator('#key-dialog[open] #key-input').fill(key);
    await page.locator('#key-dialog button[type=submit]').click();
    await page.locator('body[data-ready=true]').waitFor();
    return { page, errors };
  }

  it("draws the latest issue's fan with the API's numbers after the recent estimates, and skill by lead as verified", async () => {
    const { page, errors } = await openAt(`#reservoir=${encodeURIComponent(forecasted)}`);
    await page.locator('#forecast-status', { hasText: /^issued / }).waitFor();
    const name = encodeURIComponent(forecasted);
    const forecast = await api(`/forecast/daily/reservoirs?RES_NAMES=${name}&variables=E_volume&statistics=p05,p25,p50,p75,p95`);
    const verification = await api(`/forecast/verification/reservoirs?RES_NAMES=${name}&variables=E_volume`);
    const fan = await page.evaluate(() => (document.getElementById('forecast-chart') as HTMLElement & Plotted).uplot!.data);
    const days = fan[0]!.map((s) => new Date(s! * 1000).toISOString().slice(0, 10));
    const issued = String(forecast[0]!.issued);
    expect(forecast).toHaveLength(28);
    // the series are the estimate, then p95, p05, p75, p25 and the median (forecast.ts's order)
    for (const [column, statistic] of [
      [2, 'p95'],
      [3, 'p05'],
      [4, 'p75'],
      [5, 'p25'],
      [6, 'p50'],
    ] as const) {
      for (const r of forecast) expect(fan[column]![days.indexOf(String(r.valid_date))]).toBe(r[`E_volume (m3) ${statistic}`]);
    }
    // the estimates end on the issue date, and nothing is forecast before the day after it
    const estimated = days.filter((_, i) => fan[1]![i] !== null);
    expect(estimated.at(-1)).toBe(issued);
    expect(estimated.length).toBeGreaterThan(30);
    expect(days.filter((_, i) => fan[6]![i] !== null)[0]! > issued).toBe(true);
    const skill = await page.evaluate(() => (document.getElementById('skill-chart') as HTMLElement & Plotted).uplot!.data);
    expect(skill[0]).toEqual(verification.map((r) => r.lead_days));
    expect(skill[1]).toEqual(verification.map((r) => r.skill));
    expect(errors).toEqual([]);
    await page.locator('#forecast').screenshot({ path: join(shots, 'forecast-fan.png') });

    // English units: the fan's numbers follow the page's units, as the API converts them
    await page.locator('input[name=units][value=english]').check();
    await page.locator('#forecast-total', { hasText: /acre-ft/ }).waitFor();
    const english = await api(`/forecast/daily/reservoirs?RES_NAMES=${name}&variables=E_volume&statistics=p50&units=english`);
    const fanEnglish = await page.evaluate(() => (document.getElementById('forecast-chart') as HTMLElement & Plotted).uplot!.data);
    const englishDays = fanEnglish[0]!.map((s) => new Date(s! * 1000).toISOString().slice(0, 10));
    for (const r of english) expect(fanEnglish[6]![englishDays.indexOf(String(r.valid_date))]).toBe(r['E_volume (acre-ft) p50']);
    await page.close();
  }, 90_000);

  it("shows the 28-day total, its median and the members' 10th-90th percentile, and y axes whose ticks fit", async () => {
    // the reservoir of the largest volumes: the widest ticks
    const totals = await api('/forecast/total/reservoirs?RES_NAMES=ALL&variables=E_volume&statistics=p50');
    const largest = totals.reduce((a, b) => ((b['E_volume (m3) p50'] as number) > (a['E_volume (m3) p50'] as number) ? b : a));
    const name = encodeURIComponent(String(largest.RES_NAME));
    const { page, errors } = await openAt(`#reservoir=${name}`);
    const text = String(await page.locator('#forecast-total', { hasText: /total/ }).textContent());
    // each member's sum over the 28 days, then their quantiles: not the sum of the daily percentiles
    const daily = await api(`/forecast/daily/reservoirs?RES_NAMES=${name}&variables=E_volume&statistics=members`);
    const members = Object.keys(daily[0]!).filter((k) => / m\d\d$/.test(k));
    expect(members.length).toBeGreaterThan(1);
    const sums = members.map((k) => daily.reduce((s, r) => s + (r[k] as number), 0));
    const shown = totalIn(text, 'm3');
    expect(shown, text).toBeDefined();
    const [median, low, high] = shown!;
    for (const [got, want] of [
      [median, type7(sums, 0.5)],
      [low, type7(sums, 0.1)],
      [high, type7(sums, 0.9)],
    ] as const)
      expect(Math.abs(got! / want - 1), text).toBeLessThanOrEqual(0.005); // three significant digits
    expect(text).toContain(`${daily[0]!.valid_date} to ${daily.at(-1)!.valid_date}`);

    // every tick label of the y axes fits beside its ticks, clear of the axis label drawn beyond them; the label, drawn
    // along the axis, fits the plot's height
    const axes = await page.evaluate(() =>
      ['forecast-chart', 'skill-chart'].map((id) => {
        const plot = (document.getElementById(id) as HTMLElement & Plotted).uplot!;
        const axis = plot.axes[1]!;
        const measure = document.createElement('canvas').getContext('2d')!;
        measure.font = axis.font[0];
        const widest = Math.max(...axis._values.map((v) => measure.measureText(v).width / devicePixelRatio));
        measure.font = axis.labelFont[0];
        const label = measure.measureText(axis.label ?? '').width / devicePixelRatio;
        const height = plot.bbox.height / devicePixelRatio;
        return { id, label: axis.label, values: axis._values, needed: widest + axis.ticks.size + axis.gap, size: axis._size, labelWidth: label, height };
      }),
    );
    for (const a of axes) {
      expect(a.needed, JSON.stringify(a)).toBeLessThanOrEqual(a.size);
      expect(a.labelWidth, JSON.stringify(a)).toBeLessThanOrEqual(a.height);
    }
    expect(axes[1]!.label).toMatch(/skill/);

    // in English units, the total is the API's English total
    await page.locator('input[name=units][value=english]').check();
    const english = String(await page.locator('#forecast-total', { hasText: /acre-ft/ }).textContent());
    const [total] = await api(`/forecast/total/reservoirs?RES_NAMES=${name}&variables=E_volume&statistics=p10,p50,p90&units=english`);
    const englishShown = totalIn(english, 'acre-ft');
    expect(englishShown, english).toBeDefined();
    ['p50', 'p10', 'p90'].forEach((s, i) => expect(Math.abs(englishShown![i]! / (total![`E_volume (acre-ft) ${s}`] as number) - 1)).toBeLessThanOrEqual(0.005));
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  it('colours the map by the forecast 28-day total and hides the panel for a station', async () => {
    const { page, errors } = await openAt('');
    const totals = await api('/forecast/total/reservoirs?RES_NAMES=ALL&variables=E_volume&statistics=p50');
    await page.locator('#colour-variable').selectOption('forecast|E_volume');
    await page.locator('#map-status', { hasText: 'forecast issued' }).waitFor();
    expect(await page.locator('#map-status').textContent()).toContain(`${totals.length} reservoirs have a E_volume forecast issued ${totals[0]!.issued}`);
    expect(await page.locator('#legend').textContent()).toContain('E_volume (m3) p50');
    expect(await page.locator('.date-slider').isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
    const station = (await api('/metadata/stations'))[0]!.STA_NAME;
    const atStation = await openAt(`#station=${encodeURIComponent(String(station))}`);
    await atStation.page.locator('#chart-status', { hasText: 'records' }).waitFor();
    expect(await atStation.page.locator('#forecast').isHidden()).toBe(true);
    expect(atStation.errors).toEqual([]);
    await atStation.page.close();
  }, 90_000);
});
