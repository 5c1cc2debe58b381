// The explorer's figures in headless Chromium over loopback: page load on the demo store, then load, redraw, search and
// colouring times at 44,000 reservoirs (bench/wide-store.ts).
// `npx tsx bench/explorer.ts [--reservoirs 44000] [--runs 3]`
//
// Last results (2 CPUs shared with other work: load average 11-13 during the run, so several times an idle machine):
//   demo store (67 reservoirs, 27 stations): page loaded (load event) median 459 ms, every name drawn median 884 ms
//   44,000 reservoirs, 27 stations: page loaded 340 ms, every name drawn 3.7 s (about 90 metadata requests)
//   full redraw while zooming and panning: median 27 ms, 95th percentile 102 ms, slowest 178 ms (120 redraws)
//   search among 44,060 names: median 3.6 ms a keystroke, slowest 12 ms
//   colouring every reservoir on one date: 1.6 s (first date), 1.4 s (next, with the slider's 150 ms pause)
import { parseArgs } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { buildExplorer } from '../cli/build-explorer.js';
import { openStore } from '../lib/store.js';
import { createHandler } from '../server/app.js';
import { KeyRing } from '../server/auth.js';
import { serve } from '../server/node.js';
import { makeWideStore } from './wide-store.js';

const { values } = parseArgs({ options: { reservoirs: { type: 'string', default: '44000' }, runs: { type: 'string', default: '3' } } });
const key = 'bench-key';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

async function listen(storeDir: string | undefined, explorerDir: string) {
  const store = await openStore(storeDir);
  const handler = createHandler({ store, keys: KeyRing.fromKeys([key]), explorerDir });
  const serving = await serve(handler, { port: 0, host: '127.0.0.1', maxConcurrent: 64, headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, logger: { info: () => {}, error: console.error } } as Parameters<typeof serve>[1]);
  return { url: serving.url, close: async () => (await serving.close(1000), await store.close()) };
}

// a fresh tab with the key already given; times to the load event and to every name drawn
async function load(browser: Browser, url: string) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript((k) => sessionStorage.setItem('evap-api-key', k), key);
  const began = Date.now();
  await page.goto(`${url}/`);
  const loaded = Date.now() - began;
  await page.locator('body[data-ready=true]').waitFor({ timeout: 120_000 });
  return { page, loaded, ready: Date.now() - began };
}

const work = await mkdtemp(join(tmpdir(), 'evap-bench-explorer-'));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const explorerDir = await buildExplorer(join(work, 'explorer'));
  const runs = Number(values.runs);

  const demo = await listen(undefined, explorerDir);
  const demoTimes = [];
  for (let n = 0; n < runs + 1; n++) {
    const { page, loaded, ready } = await load(browser, demo.url);
    if (n > 0) demoTimes.push({ loaded, ready }); // the first warms the server's caches
    await page.close();
  }
  await demo.close();
  console.log(`demo store: page loaded median ${median(demoTimes.map((t) => t.loaded))} ms, every name drawn median ${median(demoTimes.map((t) => t.ready))} ms`);

  const reservoirs = Number(values.reservoirs);
  const began = Date.now();
  await makeWideStore(join(work, 'store'), reservoirs, 3);
  console.log(`store of ${reservoirs} reservoirs made in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  const wide = await listen(join(work, 'store'), explorerDir);
  const wideTimes = [];
  for (let n = 0; n < runs; n++) {
    const { page, loaded, ready } = await load(browser, wide.url);
    wideTimes.push({ loaded, ready });
    if (n < runs - 1) await page.close();
    else {
      const map = page.locator('#map');
      const box = (await map.boundingBox())!;
      const frames = () => page.evaluate(() => [...(document.getElementById('map') as HTMLCanvasElement & { frameTimes: number[] }).frameTimes]);
      await page.evaluate(() => ((document.getElementById('map') as HTMLCanvasElement & { frameTimes: number[] }).frameTimes.length = 0));
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 60; i++) {
        await page.mouse.wheel(0, i < 30 ? -60 : 60);
        await page.evaluate(() => new Promise(requestAnimationFrame));
      }
      await page.mouse.down();
      for (let i = 0; i < 60; i++) {
        await page.mouse.move(box.x + box.width / 2 + 200 * Math.sin(i / 10), box.y + box.height / 2 + 100 * Math.cos(i / 10));
        await page.evaluate(() => new Promise(requestAnimationFrame));
      }
      await page.mouse.up();
      const redraws = await frames();
      console.log(`${reservoirs} reservoirs: page loaded median ${median(wideTimes.map((t) => t.loaded))} ms, every name drawn median ${median(wideTimes.map((t) => t.ready))} ms`);
      console.log(`full redraw while zooming and panning: median ${median(redraws).toFixed(1)} ms, 95th percentile ${pct(redraws, 0.95).toFixed(1)} ms, slowest ${pct(redraws, 1).toFixed(1)} ms (${redraws.length} redraws)`);
      const search = await page.evaluate(() => {
        const input = document.getElementById('search') as HTMLInputElement;
        const times = [];
        for (const text of ['Y', 'YE', 'YEL', 'YELL', 'YELLOW', 'LAKE', 'NO 1', 'RESERVOIR NO 4']) {
          const t = performance.now();
          input.value = text;
          input.dispatchEvent(new Event('input'));
          times.push(performance.now() - t);
        }
        return times;
      });
      console.log(`search: median ${median(search).toFixed(1)} ms a keystroke, slowest ${pct(search, 1).toFixed(1)} ms`);
      for (const label of ['first', 'next']) {
        const t = Date.now();
        if (label === 'first') await page.locator('#colour-variable').selectOption('nete-volume-calcs|NetE');
        else {
          await page.locator('#colour-date').fill('1');
          await page.locator('#colour-date').dispatchEvent('input');
        }
        await page.waitForFunction((date) => document.getElementById('map-status')!.textContent!.endsWith(date), label === 'first' ? '2025-12-31' : '2025-12-30', { timeout: 60_000 });
        console.log(`colouring every reservoir on one date (${label}): ${Date.now() - t} ms${label === 'next' ? ' (including the slider 150 ms pause)' : ''}`);
      }
      await page.close();
    }
  }
  await wide.close();
} finally {
  await browser.close();
  await rm(work, { recursive: true, force: true });
}
