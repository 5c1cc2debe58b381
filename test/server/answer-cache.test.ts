// server/answer-cache.ts and cached-answers.ts: conditional requests and the cache of recent answers through the app (no socket): an answer's ETag names its
// snapshot and query, If-None-Match gives 304 without the answer being made, a repeated query is answered from the
// cache without asking the store, and a revision (a new snapshot, written here) is never answered from either.
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ingest, textSource } from '../../lib/ingest/ingest.js';
import { type EvapStore, openStore } from '../../lib/open/store.js';
import { generateStore } from '../../lib/synthetic/generate.js';
import { AnswerCache, type CachedAnswer } from '../../server/answer-cache.js';
import { noneMatch } from '../../server/cached-answers.js';
import { tempDir } from '../helpers.js';
import { demoStore, testApp } from './harness.js';

let store: EvapStore;
let reservoir: string;
let revise: (value: number) => Promise<void>; // writes and publishes a new snapshot with one value changed
let beforeRevisions: string;

beforeAll(async () => {
  const dir = await tempDir();
  await generateStore(dir, { reservoirs: 3, stations: 1, start: '2021-01-01', end: '2021-03-31', seed: 7 });
  await new Promise((resolve) => setTimeout(resolve, 20)); // as_of at a time strictly between two snapshots
  beforeRevisions = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 20));
  store = await openStore(dir);
  [reservoir] = store.manifest.reservoirs.names as [string];
  const [day] = await store.reservoirTimeseries({ names: [reservoir], datasets: ['lem'], variables: ['E_hs'], start: '2021-03-15', end: '2021-03-15' });
  revise = async (value) => {
    const summary = await ingest(dir, [textSource(`revision-${value}.json`, JSON.stringify([{ ...day, 'E_hs (mm)': value }]))]);
    expect(summary.filesApplied).toBe(1);
    expect(await store.refresh()).toBe(true);
  };
});

const query = () =>
  `/timeseries/daily/reservoirs/daterange?RES_NAMES=${encodeURIComponent(reservoir)}&datasets=lem&variables=E_hs&start_date=2021-03-01&end_date=2021-03-31`;
const valueOn15th = async (response: Response) =>
  ((await response.json()) as Record<string, unknown>[]).find((r) => r.start_date === '2021-03-15')!['E_hs (mm)'];

describe('ETag and If-None-Match', () => {
  it('tags an answer by its snapshot and query, answers 304 to its tag (weak or strong) and to *, and 200 to another', async () => {
    const app = await testApp({ store });
    const first = await app.get(query());
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^"[^"]+"$/); // strong: the same bytes for the same snapshot and query
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const body = await first.text();
    // the same parameters in another order, and with the key in the query, are the same query
    const reordered = `/timeseries/daily/reservoirs/daterange?end_date=2021-03-31&start_date=2021-03-01&variables=E_hs&datasets=lem&RES_NAMES=${encodeURIComponent(reservoir)}`;
    const again = await app.get(reordered);
    expect([again.headers.get('etag'), await again.text()]).toEqual([tag, body]);
    for (const asked of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
      const conditional = await app.get(query(), { headers: { 'if-none-match': asked } });
      expect(conditional.status, asked).toBe(304);
      expect(await conditional.text()).toBe('');
      expect(conditional.headers.get('etag')).toBe(tag);
      expect(conditional.headers.get('vary')).toBe('Accept-Encoding');
    }
    const other = await app.get(query(), { headers: { 'if-none-match': '"other", W/"another"' } });
    expect([other.status, await other.text()]).toEqual([200, body]);
    const differentQuery = await app.get(query().replace('2021-03-31', '2021-03-30'));
    expect(differentQuery.headers.get('etag')).not.toBe(tag);
    const zipped = await app.get(query(), { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('etag')).toBe(`W/${tag}`); // another representation: weak (RFC 9110 8.8.1)
    const zipped304 = await app.get(query(), { headers: { 'accept-encoding': 'gzip', 'if-none-match': `W/${tag}` } });
    expect([zipped304.status, zipped304.headers.get('etag')]).toEqual([304, `W/${tag}`]);
  });

  it('matches by the weak comparison of RFC 9110 13.1.2: any list holding the opaque tag, W/ or not; nothing else', () => {
    const opaque = fc.stringMatching(/^[!#-~]{0,12}$/).map((s) => `"${s}"`); // etagc: any visible character but DQUOTE
    fc.assert(
      fc.property(opaque, fc.uniqueArray(opaque, { maxLength: 5 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), (tag, others, weak) => {
        const list = others.map((t, i) => (weak[i] ? `W/${t}` : t));
        const header = list.join(` ,${weak[5] ? '  ' : ''}`);
        expect(noneMatch(header === '' ? null : header, tag)).toBe(others.includes(tag));
        expect(noneMatch([...list, `W/${tag}`].join(', '), tag)).toBe(true);
        expect(noneMatch([...list, tag].join(','), `W/${tag}`)).toBe(true);
      }),
    );
  });
});

describe('the cache of recent answers', () => {
  it('answers a repeated query and a 304 without asking the store, and a revision anew', async () => {
    const app = await testApp({ store });
    const asked = vi.spyOn(store, 'streamReservoirTimeseries');
    try {
      const first = await app.get(query());
      const tag = first.headers.get('etag')!;
      const value = await valueOn15th(first);
      expect(asked).toHaveBeenCalledTimes(1);
      expect(await valueOn15th(await app.get(query()))).toBe(value);
      expect((await app.get(query(), { headers: { 'if-none-match': tag } })).status).toBe(304);
      expect(asked).toHaveBeenCalledTimes(1); // both from what was kept

      await revise(987.5);
      const revised = await app.get(query(), { headers: { 'if-none-match': tag } });
      expect(revised.status).toBe(200); // the old tag names the old snapshot
      expect(revised.headers.get('etag')).not.toBe(tag);
      expect(await valueOn15th(revised)).toBe(987.5);
      expect(asked).toHaveBeenCalledTimes(2);
    } finally {
      asked.mockRestore();
    }
  });

  it('keeps as_of answers by the snapshot they are read from: still kept after a revision', async () => {
    const app = await testApp({ store });
    const past = `${query()}&as_of=${beforeRevisions}`;
    const first = await app.get(past);
    expect(first.status).toBe(200);
    const [tag, body] = [first.headers.get('etag')!, await first.text()];
    await revise(111.5);
    const again = await app.get(past);
    expect([again.status, again.headers.get('etag'), await again.text()]).toEqual([200, tag, body]);
    expect((await app.get(past, { headers: { 'if-none-match': tag } })).status).toBe(304);
    expect(await valueOn15th(await app.get(query()))).toBe(111.5); // the current snapshot is not the past one
  });

  it('opens one view of the past per as_of request: its snapshot names the tag, and the route reads from it', async () => {
    const app = await testApp({ store });
    const past = `${query().replace('2021-03-31', '2021-03-29')}&as_of=${beforeRevisions}`;
    const opened = vi.spyOn(store, 'asOf');
    try {
      const first = await app.get(past); // made
      expect(first.status).toBe(200);
      expect(opened).toHaveBeenCalledTimes(1);
      const tag = first.headers.get('etag')!;
      expect((await app.get(past)).headers.get('etag')).toBe(tag); // kept
      expect((await app.get(past, { headers: { 'if-none-match': tag } })).status).toBe(304);
      expect(opened).toHaveBeenCalledTimes(3); // one view each: the kept answer and the 304 need its snapshot too
      const bad = await app.get(`${query()}&as_of=1900-01-01`);
      expect(bad.status).toBe(422); // before the first snapshot: the view's refusal, once
      expect(opened).toHaveBeenCalledTimes(4);
    } finally {
      opened.mockRestore();
    }
  });

  it('neither tags nor keeps the list of snapshots, which a vacuum changes without a new snapshot', async () => {
    const app = await testApp({ store });
    const listed = await app.get('/info/list_snapshots');
    expect(listed.status).toBe(200);
    expect(listed.headers.get('etag')).toBeNull();
    expect((await app.get('/info/list_datasets')).headers.get('etag')).toMatch(/^"/); // an info path of the snapshot alone is
  });

  it('keeps a streamed answer (over a MiB) once sent to its end and sends it whole again; not one left half-read, nor one larger than an entry', async () => {
    const demo = await demoStore(); // 67 reservoirs: a year of NetE of them all is about 2 MB of JSON
    const every = '/timeseries/daily/reservoirs/daterange?RES_NAMES=ALL&datasets=nete-volume-calcs&variables=NetE&start_date=2020-01-01&end_date=2020-12-31';
    const app = await testApp({ store: demo });
    const asked = vi.spyOn(demo, 'streamReservoirTimeseries');
    try {
      const left = await app.get(every); // over a MiB of text: streamed as it is made (answers.ts streamResponse)
      const reader = left.body!.getReader();
      await reader.read();
      await reader.cancel(); // the client went away after its first chunk: nothing kept
      const first = await app.get(every);
      const text = await first.text();
      expect(text.length).toBeGreaterThan(2 ** 20);
      expect(JSON.parse(text)).toHaveLength(67 * 366);
      expect(asked).toHaveBeenCalledTimes(2);
      const again = await app.get(every);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(await again.text()).toBe(text);
      expect(asked).toHaveBeenCalledTimes(2); // from what was kept

      const small = await testApp({ store: demo, answerCacheBytes: 8 * 2 ** 20 }); // entries of at most 1 MiB
      for (let i = 0; i < 2; i++) expect(await (await small.get(every)).text()).toBe(text);
      expect(asked).toHaveBeenCalledTimes(4); // made each time
    } finally {
      asked.mockRestore();
    }
  });

  it('still counts a cached answer and a 304 against the rate limit', async () => {
    const app = await testApp({ store, rateLimitPerMinute: 3 });
    const first = await app.get(query());
    const tag = first.headers.get('etag')!;
    expect((await app.get(query())).status).toBe(200); // from the cache
    expect((await app.get(query(), { headers: { 'if-none-match': tag } })).status).toBe(304);
    const limited = await app.get(query(), { headers: { 'if-none-match': tag } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
  });

  it('holds at most its bound of bytes, least recently used out first, and no answer above an eighth of it', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 40 })), { maxLength: 60 }), (puts) => {
        const cache = new AnswerCache(160); // answers of up to 20 bytes kept
        const model: [string, number][] = []; // the expected content, most recently used last
        for (const [key, size] of puts) {
          const name = `k${key}`;
          if (key % 3 === 0 && cache.get(name)) {
            model.push(
              model.splice(
                model.findIndex(([k]) => k === name),
                1,
              )[0]!,
            ); // a use makes it the newest
            continue;
          }
          cache.set(name, { status: 200, headers: [], body: new Uint8Array(size) });
          const at = model.findIndex(([k]) => k === name);
          if (at >= 0) model.splice(at, 1);
          if (size <= 20) model.push([name, size]);
          while (model.reduce((n, [, s]) => n + s, 0) > 160) model.shift();
        }
        expect(cache.stats.bytes).toBeLessThanOrEqual(160);
        expect({ bytes: cache.stats.bytes, answers: cache.stats.answers }).toEqual({ bytes: model.reduce((n, [, s]) => n + s, 0), answers: model.length });
        for (const [k, size] of model) expect(cache.get(k)?.body.byteLength).toBe(size);
      }),
    );
  });

  it('gives an answer again by its target only while that very answer is kept and its check passes, and keeps at most 256 targets', () => {
    const put = fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 40 }), fc.boolean()); // key and target, body bytes, check
    fc.assert(
      fc.property(fc.array(put, { maxLength: 40 }), (puts) => {
        const cache = new AnswerCache(160);
        const last = new Map<number, { answer: CachedAnswer; passes: boolean; head: Record<string, string> }>();
        for (const [k, size, passes] of puts) {
          const answer: CachedAnswer = { status: 200, headers: [], body: new Uint8Array(size) };
          const head = { 'content-length': String(size) };
          cache.set(`k${k}`, answer);
          cache.replay(`k${k}`, answer, () => passes)(`/t${k}`, head);
          last.set(k, { answer, passes, head });
        }
        let live = 0; // targets still given again: each failed one is forgotten
        for (const [k, { answer, passes, head }] of last) {
          const kept = cache.get(`k${k}`) === answer; // evicted, or not kept at all (above an eighth of the bound)
          const again = cache.again(`/t${k}`, new Headers());
          if (kept && passes) expect(again).toEqual({ status: 200, head, body: answer.body });
          else expect(again).toBeUndefined();
          expect(again?.body).toBe(kept && passes ? answer.body : undefined); // the very bytes kept, not a copy
          if (kept && passes) live++;
        }
        expect(cache.stats.targets).toBe(live);
      }),
    );
    const cache = new AnswerCache(2 ** 20);
    const answer: CachedAnswer = { status: 200, headers: [], body: new Uint8Array(1) };
    cache.set('k', answer);
    for (let i = 0; i < 300; i++) cache.replay('k', answer, () => true)(`/t${i}`, {});
    expect(cache.stats.targets).toBe(256);
    expect(cache.again('/t0', new Headers())).toBeUndefined(); // the oldest went first
    expect(cache.again('/t299', new Headers())?.body).toBe(answer.body);
  });
});
