// The explorer's figures in headless Chromium over loopback: page load on the demo store, then load, redraw, search and
// colouring times at 44,000 reservoirs (test/support/wide-store.ts).
// `npx tsx bench/explorer.ts [--reservoirs 44000] [--runs 3]`
//
// Last results (headless Chromium, software rasterisation, on 2 CPUs shared with other work: load average about 5):
//   demo store (67 reservoirs, 27 stations): page loaded (load event) median 324 ms, every name drawn median 692 ms
//   44,000 reservoirs, 27 stations: page loaded 455 ms, every name drawn 2.5 s (about 90 metadata requests)
//   frames while zooming and panning: median 16.7 ms apart (60 a second), 95th percentile 18.4 ms, slowest 22 ms
//   the full redraw of 44,000 points once the input rests: 153 ms (270-450 ms at load average 10)
//   search among 44,027 names: median 6.6 ms a keystroke; colouring every reservoir on one date: 0.6 s

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Browser, chromium } from 'playwright-core';
import { openStore } from '../lib/open/store.js';
import { buildExplorer } from '../scripts/build-explorer.js';
import { createHandler } from '../server/app.js';
import { KeyRing } from '../server/keys/auth.js';
import { serve } from '../server/process/adapter.js';
import { makeWideStore } from '../test/support/wide-store.js';
import { percentile } from './timing.js';

const { values } = parseArgs({ options: { reservoirs: { type: 'string', default: '44000' }, runs: { type: 'string', default: '3' } } });
const key = 'bench-key';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function listen(storeDir: string | undefined, explorerDir: string) {
  const store = await openStore(storeDir);
  const handler = createHandler({ store, keys: KeyRing.fromKeys([key]), explorerDir });
  const serving = await serve(handler, {
    port: 0,
    host: '127.0.0.1',
    maxConcurrent: 64,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 60_000,
    logger: { info: () => {}, error: console.error },
  } as Parameters<typeof serve>[1]);
  return {
    url: serving.url,
    close: async () => {
      await serving.close(1000);
      await store.close();
    },
  };
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
  console.log(
    `demo store: page loaded median ${median(demoTimes.map((t) => t.loaded))} ms, every name drawn median ${median(demoTimes.map((t) => t.ready))} ms`,
  );

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
      // frame pacing while zooming in and out, then panning: events sent from the page itself at every animation
      // frame, so the intervals between frames include the drawing and its rasterisation (16.7 ms is 60 frames/s)
      const paced = await page.evaluate(async () => {
        const canvas = document.getElementById('map') as HTMLCanvasElement & { frameTimes: number[] };
        const box = canvas.getBoundingClientRect();
        const at = { clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 };
        const intervals: number[] = [];
        canvas.frameTimes.length = 0;
        let last = performance.now();
        for (let i = 0; i < 240; i++) {
          // no named helpers in here: the bench runs through tsx, whose names would not exist in the page
          if (i < 120) canvas.dispatchEvent(new WheelEvent('wheel', { ...at, deltaY: i < 60 ? -25 : 25, cancelable: true }));
          else {
            if (i === 120) canvas.dispatchEvent(new PointerEvent('pointerdown', { ...at, pointerId: 1 }));
            canvas.dispatchEvent(
              new PointerEvent('pointermove', { clientX: at.clientX + 200 * Math.sin(i / 15), clientY: at.clientY + 100 * Math.cos(i / 15), pointerId: 1 }),
            );
          }
          await new Promise(requestAnimationFrame);
          intervals.push(performance.now() - last);
          last = performance.now();
        }
        canvas.dispatchEvent(new PointerEvent('pointerup', { ...at, pointerId: 1 }));
        await new Promise((resolve) => setTimeout(resolve, 400)); // the full redraw once the input rests
        return { intervals, full: [...canvas.frameTimes] };
      });
      console.log(
        `${reservoirs} reservoirs: page loaded median ${median(wideTimes.map((t) => t.loaded))} ms, every name drawn median ${median(wideTimes.map((t) => t.ready))} ms`,
      );
      console.log(
        `frames while zooming and panning: median ${median(paced.intervals).toFixed(1)} ms apart, 95th percentile ${percentile(paced.intervals, 0.95)!.toFixed(1)} ms, slowest ${percentile(paced.intervals, 1)!.toFixed(1)} ms (${paced.intervals.length} frames); full redraw after it: ${paced.full.map((t) => t.toFixed(0)).join(', ')} ms`,
      );
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
      console.log(`search: median ${median(search).toFixed(1)} ms a keystroke, slowest ${percentile(search, 1)!.toFixed(1)} ms`);
      for (const label of ['first', 'next']) {
        const t = Date.now();
        if (label === 'first') await page.locator('#colour-variable').selectOption('nete-volume-calcs|NetE');
        else {
          await page.locator('#colour-date').fill('1');
          await page.locator('#colour-date').dispatchEvent('input');
        }
        await page.waitForFunction(
          (date) => document.getElementById('map-status')!.textContent!.endsWith(date),
          label === 'first' ? '2025-12-31' : '2025-12-30',
          { timeout: 60_000 },
        );
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
