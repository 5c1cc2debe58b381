// The HTML pages in Chromium, as a browser user follows them: landing page -> collections -> one collection -> its
// features, and no error on the console. Links carry no key, so the browser sends it as a header here (an extension
// or a proxy does that for a person).
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../browser.js';
import { startTestServer, type TestServer } from '../harness.js';

const missing = chromiumMissing('the /ogc HTML browser test');

describe.skipIf(missing)('/ogc pages in Chromium', () => {
  let browser: BrowserContext;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('follows the links from the landing page to a collection and its features', async () => {
    const page = await browser.newPage();
    await page.setExtraHTTPHeaders({ 'api-key': server.key });
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${server.url}/ogc`); // Chromium sends Accept: text/html
    expect(await page.locator('h1').textContent()).toBe('evap OGC API');
    await page.getByRole('link', { name: 'the collections' }).click();
    await page.waitForURL(/\/ogc\/collections(\?|$)/);
    expect(await page.locator('h1').textContent()).toBe('Collections');
    await page.getByRole('link', { name: 'Reservoirs, daily: lem' }).click();
    await page.waitForURL(/\/ogc\/collections\/lem(\?|$)/);
    await page.getByRole('link', { name: 'the features as a page' }).click();
    await page.waitForURL(/\/ogc\/collections\/lem\/items(\?|$)/);
    const shown = JSON.parse((await page.locator('pre').textContent())!) as { numberReturned: number; features: { id: string }[] };
    expect(shown.numberReturned).toBe(100);
    expect(shown.features[0]!.id).toMatch(/@\d{4}-\d{2}-\d{2}$/);
    await page.getByRole('link', { name: 'next page' }).click();
    await page.waitForURL(/offset=100/);
    expect(problems).toEqual([]);
  });
});
