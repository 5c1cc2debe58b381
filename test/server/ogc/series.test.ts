// EDR answers (server/ogc/series.ts): places given in the order asked from a stream in name order; a large area answer
// that leaves the process free for other requests while it is made, streams in bounded memory, and is admitted as a
// heavy answer by the rows it reads (weighted by its format's cost).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStream } from '../../../lib/format/stream.js';
import { openStore } from '../../../lib/open/store.js';
import { compareText } from '../../../lib/order.js';
import type { WireRecord } from '../../../lib/types.js';
import { AnswerGate } from '../../../server/admission.js';
import { byPlace, EDR_WEIGHT } from '../../../server/ogc/series.js';
import { makeWideStore } from '../../support/wide-store.js';
import { spawnMain, startTestServer, testApp } from '../harness.js';

const world = encodeURIComponent('POLYGON((-180 -90,180 -90,180 90,-180 90,-180 -90))');
const area = (f: string) => `/ogc/collections/nete-volume-calcs/area?coords=${world}&parameter-name=NetE&f=${f}`;

describe('byPlace', () => {
  it('gives every place its own records once, in the order asked, from records in name order cut anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.string({ unit: fc.constantFrom('a', 'B', 'c', ' ', 'É'), maxLength: 3 }), { maxLength: 12 }),
        fc.array(fc.nat(3), { minLength: 12, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1 }),
        fc.boolean(),
        async (names, counts, cuts, locale) => {
          const asked = locale ? [...names].sort((a, b) => a.localeCompare(b)) : names; // the OGC places' order, or any
          const own = (name: string) => Array.from({ length: counts[names.indexOf(name)]! }, (_, i) => ({ N: name, i }));
          const records: WireRecord[] = [...names].sort(compareText).flatMap(own);
          const batches: WireRecord[][] = [];
          for (let at = 0, k = 0; at < records.length; at += cuts[k++ % cuts.length]!) batches.push(records.slice(at, at + cuts[k % cuts.length]!));
          const given = [];
          for await (const place of byPlace(
            (async function* () {
              yield* batches;
            })(),
            asked,
            'N',
          ))
            given.push(place);
          expect(given).toEqual(asked.map((name) => [name, own(name)]));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('admission', () => {
  it('admits an EDR answer by the rows it reads times its weight: waits for a slot, or 503 with Retry-After', async () => {
    const store = await openStore();
    const one = '/ogc/collections/lem/locations/LAKE%20MEAD?datetime=2020-01-01/2020-01-03';
    const rows = store.streamReservoirTimeseries({ names: ['LAKE MEAD'], datasets: ['lem'], start: '2020-01-01', end: '2020-01-03' }).readRows;
    expect(rows).toBeGreaterThan(0);
    expect(EDR_WEIGHT.geojson).toBeGreaterThan(2 * EDR_WEIGHT.coverage);
    // light as CoverageJSON, heavy as GeoJSON (a feature per day costs more than the daily JSON of the same rows)
    const gate = new AnswerGate(1, rows * 2 * EDR_WEIGHT.coverage);
    const app = await testApp({ store, gate });
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const holder = gate
      .admit(
        recordStream(
          ['x'],
          async function* () {
            yield [{ x: 1 }];
            await released;
          },
          Number.POSITIVE_INFINITY,
        ),
      )
      .batches[Symbol.asyncIterator]();
    await holder.next(); // the one slot is taken
    const geojson = app.get(`${one}&f=GeoJSON`);
    await expect.poll(() => gate.load).toEqual({ running: 1, waiting: 1 });
    expect((await app.get(one)).status).toBe(200); // CoverageJSON of the same rows is light: it never waits
    release();
    await holder.next();
    const answer = await geojson;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { features: unknown[] }).features.length).toBe(3);

    const shut = await testApp({ store, gate: new AnswerGate(0, rows * 2 * EDR_WEIGHT.coverage) }); // no slot, no line
    const refused = await shut.get(`${one}&f=GeoJSON`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await shut.get(one)).status).toBe(200);
  });
});

describe('an area answer over every place', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evap-edr-'));
    await makeWideStore(dir, 600, 730); // 438,000 values of NetE, two years
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true })); // made with tempDir in this hook, the folder was left behind

  it('leaves the process free: a small request beside it answers in a fraction of its time', async () => {
    const server = await startTestServer({ store: await openStore(dir) });
    const began = performance.now();
    let end: number | undefined;
    const big = server.get(area('CoverageJSON')).then(async (response) => {
      const text = await response.text();
      end = performance.now() - began;
      return { status: response.status, text };
    });
    const waits: number[] = [];
    while (end === undefined) {
      const asked = performance.now();
      // a server too busy to read its sockets resets the connection: the wait counts all the same
      await server.get('/info/list_datasets').then(
        (response) => response.arrayBuffer(),
        () => undefined,
      );
      if (end === undefined) waits.push(performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { status, text } = await big;
    expect(status).toBe(200);
    expect((JSON.parse(text) as { coverages: unknown[] }).coverages.length).toBe(600);
    // meanwhile the small request was answered again and again, never waiting for the area answer's end (a turn of
    // the event loop every few thousand records; the longest wait is the store's read of a group of names)
    const figures = `${waits.length} small answers, the slowest in ${Math.round(Math.max(...waits))} ms; the area answer took ${Math.round(end)} ms`;
    expect(waits.length, figures).toBeGreaterThanOrEqual(3);
    expect(Math.max(...waits), figures).toBeLessThan(end / 2);
  }, 120_000);

  it('streams: its first bytes come at once, and a server of a 64 MB heap makes an answer larger than that', async () => {
    // the young generation kept small (1 MB semi-spaces, not 16), so that the process's memory is about what it holds
    const main = await spawnMain({ EVAP_STORE: dir, EVAP_API_KEYS: 'k', NODE_OPTIONS: '--max-old-space-size=64 --max-semi-space-size=1' });
    const headers = { 'api-key': 'k' };
    const peakRss = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${main.child.pid}/status`, 'utf8'))![1]) * 1024;
    await (await fetch(`${main.url}/ogc/collections/nete-volume-calcs/locations/LAKE%20MEAD?f=GeoJSON`, { headers })).arrayBuffer(); // modules loaded
    const before = peakRss();
    const response = await fetch(`${main.url}${area('GeoJSON')}`, { headers });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let bytes = (await reader.read()).value!.byteLength; // the first bytes, then the client pauses
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const paused = peakRss() - before;
    for (let next = await reader.read(); !next.done; next = await reader.read()) bytes += next.value.byteLength;
    const total = peakRss() - before;
    const MB = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;
    const figures = `answer ${MB(bytes)}; peak RSS growth ${MB(paused)} while the client paused, ${MB(total)} in all`;
    expect(bytes, figures).toBeGreaterThan(60 * 2 ** 20); // a feature per place and day
    expect(paused, figures).toBeLessThan(bytes / 2); // made as the client reads (back-pressure), a place at a time
    expect(total, figures).toBeLessThan(bytes / 2); // never held whole, nor its records
    main.child.kill();
  }, 120_000);
});
