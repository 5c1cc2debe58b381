// The explorer's "what if" panel in headless Chromium over a real server on loopback: the baseline and scenario totals
// and their difference in acre-feet against the test's own requests to the model's path, the monthly chart against
// the path's monthly answers, a refused scenario's 422 detail, and the panel absent where the server has no model.
// `EVAP_SCREENSHOTS=docs/screenshots` writes the panel's picture.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExplorer } from '../../scripts/build-explorer.js';
import { createHandler } from '../../server/app.js';
import type { IncomingRequest } from '../../server/incoming.js';
import { KeyRing } from '../../server/keys/auth.js';
import { tempDir } from '../helpers.js';
import { chromiumMissing, launchChromium, scratchShots } from './browser.js';
import { demoStore, startTestServer } from './harness.js';

const missing = chromiumMissing('the explorer what-if browser test');
const shots = process.env.EVAP_SCREENSHOTS ?? scratchShots;
const key = 'explorer-what-if-key';
const lake = 'LAKE MEAD';
const year = '2020';
type Records = Record<string, string | number | null>[];
type Plotted = { uplot?: { data: (number | null)[][] } };

// "+20,525 acre-ft (+4.7%)" or "−1,234 …": the number before the unit
const shownNumber = (text: string | null) =>
  Number(
    /^([+−±]?[\d,]+)/
      .exec(text ?? '')![1]!
      .replace('−', '-')
      .replace('±', '')
      .replaceAll(',', ''),
  );

describe.skipIf(missing)('the explorer what-if panel in Chromium', () => {
  let url: string;
  let close: () => Promise<void>;
  let browser: BrowserContext;
  let hideModel = false; // answer /openapi.json as a server without the model's path
  const model = async (query: string) => {
    const response = await fetch(`${url}/model/reservoirs/daterange?RES_NAMES=${encodeURIComponent(lake)}&variables=E_volume&${query}`, {
      headers: { 'api-key': key },
    });
    return { status: response.status, scenario: response.headers.get('x-evap-scenario'), body: (await response.json()) as Records & { detail?: unknown } };
  };
  const yearQuery = `units=english&start_date=${year}-01-01&end_date=${year}-12-31`;

  beforeAll(async () => {
    const explorerDir = await buildExplorer(await tempDir('evap-explorer-'));
    const handler = createHandler({ store: await demoStore(), keys: KeyRing.fromKeys([key]), explorerDir, logError: () => {} });
    const withoutModel = async (request: IncomingRequest) => {
      const response = await handler(request);
      if (request.url.pathname !== '/openapi.json' || !hideModel) return response;
      const openapi = (await response.json()) as { paths: Record<string, unknown> };
      for (const path of Object.keys(openapi.paths)) if (path.startsWith('/model/')) delete openapi.paths[path];
      return Response.json(openapi);
    };
    ({ url, close } = await startTestServer({ handler: withoutModel }));
    await mkdir(shots, { recursive: true });
    browser = await launchChromium({ viewport: { width: 1280, height: 1100 } });
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

  it("shows the baseline and +2 °C totals and their difference as the model's path computes them", async () => {
    const { page, errors } = await openAt(`#reservoir=${encodeURIComponent(lake)}`);
    await page.locator('#what-if-status', { hasText: 'then Compare' }).waitFor();
    await page.locator('#what-if-year').selectOption(year);
    await page.locator('#what-if-form input[name=ta_delta]').fill('2');
    await page.locator('#what-if-form button[type=submit]').click();
    await page.locator('#what-if-totals dt', { hasText: 'ta_delta=2' }).waitFor();
    await page.locator('#what-if-status', { hasText: `${year}-01-01 to ${year}-12-31` }).waitFor();

    // the oracle: the year's total of each, asked by the test (the path's default datasets, not the page's one)
    const baseline = await model(`${yearQuery}&interval=annual`);
    const warmer = await model(`${yearQuery}&interval=annual&ta_delta=2`);
    expect(baseline.scenario).toBe('baseline');
    expect(warmer.scenario).toBe('ta_delta=2');
    const before = baseline.body[0]!['E_volume (acre-ft)'] as number;
    const after = warmer.body[0]!['E_volume (acre-ft)'] as number;
    expect(baseline.body).toHaveLength(1);
    expect(Math.abs(after - before)).toBeGreaterThan(1); // a difference the page could get wrong
    expect(await page.locator('.what-if-baseline').textContent()).toBe(`${Math.round(before).toLocaleString('en-US')} acre-ft`);
    expect(await page.locator('.what-if-scenario').textContent()).toBe(`${Math.round(after).toLocaleString('en-US')} acre-ft`);
    const difference = await page.locator('.what-if-difference').textContent();
    expect(shownNumber(difference)).toBe(Math.round(after - before));
    expect(difference).toMatch(after > before ? /^\+/ : /^−/);
    expect(difference).toContain(`${((100 * Math.abs(after - before)) / before).toFixed(1)}%`);

    // the chart: both series month by month, as the path answers monthly
    const months = await page.evaluate(() => (document.getElementById('what-if-chart') as HTMLElement & Plotted).uplot!.data);
    const monthly = [(await model(`${yearQuery}&interval=monthly`)).body, (await model(`${yearQuery}&interval=monthly&ta_delta=2`)).body];
    expect(months[0]!.map((s) => new Date(s! * 1000).toISOString().slice(0, 10))).toEqual(monthly[0]!.map((r) => r.start_date));
    expect(months[1]).toEqual(monthly[0]!.map((r) => r['E_volume (acre-ft)']));
    expect(months[2]).toEqual(monthly[1]!.map((r) => r['E_volume (acre-ft)']));
    expect(months[1]).toHaveLength(12);
    expect(await page.locator('#what-if-request .request-url').textContent()).toContain('ta_delta=2');
    expect(errors).toEqual([]);
    // the panel down to its status line: the request box below names the test server's port
    const [top, bottom] = [await page.locator('#what-if').boundingBox(), await page.locator('#what-if-status').boundingBox()];
    await page.screenshot({ path: join(shots, 'what-if.png'), clip: { ...top!, height: bottom!.y + bottom!.height - top!.y } });

    // windier as well: the header's echo and the new total follow (a 10 m lower stage would not do: Lake Mead stays
    // deeper than the 20 m the model stores heat in, so its total is unchanged)
    await page.locator('#what-if-form input[name=wind_scale]').fill('1.5');
    await page.locator('#what-if-form button[type=submit]').click();
    await page.locator('#what-if-totals dt', { hasText: 'ta_delta=2, wind_scale=1.5' }).waitFor();
    const windier = (await model(`${yearQuery}&interval=annual&ta_delta=2&wind_scale=1.5`)).body[0]!['E_volume (acre-ft)'] as number;
    expect(Math.round(windier)).not.toBe(Math.round(after));
    expect(shownNumber(await page.locator('.what-if-difference').textContent())).toBe(Math.round(windier - before));
    await page.close();
  }, 90_000);

  it("shows a refused scenario's 422 detail in the panel, and no totals", async () => {
    const { page, errors } = await openAt(`#reservoir=${encodeURIComponent(lake)}`);
    await page.locator('#what-if-status', { hasText: 'then Compare' }).waitFor();
    await page.locator('#what-if-form input[name=ta_delta]').fill('99');
    await page.locator('#what-if-form button[type=submit]').click();
    await page.locator('#what-if-status.error').waitFor();
    const refused = await model(`${yearQuery}&interval=annual&ta_delta=99`);
    expect(refused.status).toBe(422);
    // FastAPI's shape: a list of {loc, msg}; the page shows each as "loc: msg"
    const detail = refused.body.detail as unknown as { loc: string[]; msg: string }[];
    expect(detail.map((d) => d.loc.at(-1))).toEqual(['ta_delta']);
    expect(await page.locator('#what-if-status').textContent()).toBe(`422: ${detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ')}`);
    expect(await page.locator('#what-if-totals').isHidden()).toBe(true);
    // the only errors are the browser's own lines about the 422 answers
    expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
    await page.close();
  }, 90_000);

  it("hides the panel for a station, and on a server that lists no model's path", async () => {
    const station = await fetch(`${url}/metadata/stations`, { headers: { 'api-key': key } }).then((r) => r.json() as Promise<Records>);
    const atStation = await openAt(`#station=${encodeURIComponent(String(station[0]!.STA_NAME))}`);
    await atStation.page.locator('#chart-status', { hasText: 'records' }).waitFor();
    expect(await atStation.page.locator('#what-if').isHidden()).toBe(true);
    expect(atStation.errors).toEqual([]);
    await atStation.page.close();
    hideModel = true;
    try {
      const { page, errors } = await openAt(`#reservoir=${encodeURIComponent(lake)}`);
      await page.locator('#chart-status', { hasText: 'records' }).waitFor();
      expect(await page.locator('#what-if').isHidden()).toBe(true);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      hideModel = false;
    }
  }, 90_000);
});
