// The explorer's database picker in headless Chromium over a real server serving two databases: the page at / asks the
// first; choosing the other opens /twdb/, where every request of the page goes under /twdb and the map shows its lakes.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { texasReservoirs } from '../../lib/model/texas.js';
import { openStore } from '../../lib/open/store.js';
import { buildExplorer } from '../../scripts/build-explorer.js';
import { createDatabasesHandler } from '../../server/databases.js';
import type { IncomingRequest } from '../../server/incoming.js';
import { KeyRing } from '../../server/keys/auth.js';
import { tempDir } from '../helpers.js';
import { chromiumMissing, launchChromium, scratchShots } from './browser.js';
import { demoStore, root, startTestServer } from './harness.js';

const missing = chromiumMissing('the explorer database picker test');
const key = 'explorer-databases-key';
// the README's picture comes from here, so that it shows the picker: `npm run screenshots` writes it into docs/
const shots = process.env.EVAP_SCREENSHOTS ?? scratchShots;

describe.skipIf(missing)('the explorer with several databases', () => {
  let url: string;
  let close: () => Promise<void>;
  let browser: BrowserContext;
  const paths: string[] = [];

  beforeAll(async () => {
    const explorerDir = await buildExplorer(await tempDir('evap-explorer-'));
    const texas = await openStore(join(root, 'data', 'twdb')); // made by npm ci next to the demo store
    const handler = createDatabasesHandler({
      databases: [
        { name: 'usbr', store: await demoStore() },
        { name: 'twdb', store: texas },
      ],
      keys: KeyRing.fromKeys([key]),
      explorerDir,
      logError: () => {},
    });
    const recording = (request: IncomingRequest) => {
      paths.push(request.url.pathname);
      return handler(request);
    };
    ({ url, close } = await startTestServer({ handler: recording }));
    browser = await launchChromium({ viewport: { width: 1280, height: 800 } });
    await mkdir(shots, { recursive: true });
    return () => texas.close();
  });
  afterAll(async () => {
    await browser?.close();
    await close?.();
  });

  // a fresh tab at /, the key entered, the page ready; page errors recorded
  async function openWithKey() {
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}/`);
    await page.locator('#key-dialog[open] #key-input').fill(key);
    await page.locator('#key-dialog button[type=submit]').click();
    await page.locator('body[data-ready=true]').waitFor();
    return { page, errors };
  }

  it('lists the databases, opens the chosen one at its path and asks only its paths there', async () => {
    const { page, errors } = await openWithKey();
    expect(await page.locator('#map-status').textContent()).toMatch(/^67 reservoirs .* 27 stations/);
    await page.locator('#database-label').waitFor({ state: 'visible' });
    const options = await page.locator('#database option').allTextContents();
    expect(options).toHaveLength(2);
    expect(options[0]).toMatch(/^usbr \(67 reservoirs, 2019-2021, synthetic\)$/);
    expect(options[1]).toMatch(/^twdb \(30 reservoirs, 2019-2021, synthetic\)$/);
    expect(await page.locator('#database').inputValue()).toBe('/usbr/');

    paths.length = 0;
    await Promise.all([page.waitForURL(`${url}/twdb/`), page.locator('#database').selectOption('/twdb/')]);
    await page.locator('body[data-ready=true]').waitFor(); // the key is kept for the tab: no dialog again
    expect(await page.locator('#map-status').textContent()).toMatch(new RegExp(`^${texasReservoirs.length} reservoirs .* 0 stations`));
    expect(await page.locator('#database').inputValue()).toBe('/twdb/');
    expect(await page.locator('#docs-link').getAttribute('href')).toBe('/twdb/docs');
    const asked = paths.filter((p) => !p.startsWith('/explorer/') && p !== '/databases');
    expect(asked.length).toBeGreaterThan(3);
    for (const path of asked) expect(path.startsWith('/twdb/')).toBe(true);

    await page.locator('#search').fill('lake tra');
    await page.locator('#search-list [role=option]', { hasText: 'LAKE TRAVIS' }).first().click();
    await expect.poll(() => page.locator('#selected h2').textContent()).toMatch(/^LAKE TRAVIS/);
    await expect.poll(() => page.locator('#chart-status').textContent()).toMatch(/records/);
    expect(await page.locator('#request .request-url').textContent()).toMatch(
      /^GET \/twdb\/timeseries\/daily\/reservoirs\/daterange\?.*RES_NAMES=LAKE%20TRAVIS/,
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the picker and the synthetic banner over LAKE MEAD charted, as the README pictures it', async () => {
    const { page, errors } = await openWithKey();
    await page.locator('#database-label').waitFor({ state: 'visible' });
    await page.locator('#search').fill('lake m');
    await page.locator('#search-list [role=option]', { hasText: 'LAKE MEAD NV' }).first().click();
    await expect.poll(() => page.locator('#selected h2').textContent()).toMatch(/^LAKE MEAD/);
    await expect.poll(() => page.locator('#chart-status').textContent()).toMatch(/^365 records/);
    expect(await page.locator('#database').inputValue()).toBe('/usbr/');
    expect(await page.locator('#data-banner').textContent()).toMatch(/^Synthetic data/);
    await page.screenshot({ path: join(shots, 'explorer-1280.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
