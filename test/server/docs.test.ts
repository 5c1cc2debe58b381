// /docs in headless Chromium (Debian's chromium, playwright-core): authorize with the key and run a request from the page.
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from './browser.js';
import { startTestServer, type TestServer } from './harness.js';

const missing = chromiumMissing('the /docs browser test');

describe.skipIf(missing)('/docs in Chromium', () => {
  let server: TestServer;
  let browser: BrowserContext;
  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('authorizes with the key and executes a request from the page', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    const offsite: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(server.url) && !r.url().startsWith('data:')) offsite.push(r.url());
    });
    await page.goto(`${server.url}/docs`);
    await page
      .getByRole('button', { name: /Authorize/ })
      .first()
      .click();
    await page.locator('.modal-ux input[type=text], .modal-ux input[type=password]').first().fill(server.key);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const operation = page.locator('#operations-Info-get_info_list_datasets');
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('.opblock-body').waitFor();
    const execute = operation.locator('button.execute');
    if (!(await execute.isVisible())) await operation.locator('button.try-out__btn').click();
    await execute.click();
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/200/);
    expect(await operation.locator('.live-responses-table').first().textContent()).toContain('nete-volume-calcs');
    expect(offsite).toEqual([]);
    expect(server.logs.join('\n')).toMatch(/GET \/info\/list_datasets\?output_format=json 200/);
  }, 60_000);
});
