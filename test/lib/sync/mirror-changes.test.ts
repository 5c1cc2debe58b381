// mirror --update against an evap server, over a real socket: after revisions of the server's store, the update asks
// GET /changes since the snapshot the copy recorded, fetches only what changed, and the copy then answers as the
// server's store does. The requests and the bytes of their answers are counted in the client's fetch.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { mirror, PROGRESS_FILE } from '../../../lib/sync/mirror.js';
import { planChanges } from '../../../lib/sync/mirror-changes.js';
import { tempDir, writeTinyStore } from '../../helpers.js';
import { startTestServer } from '../../server/harness.js';
import { revise, revision } from '../tables/revise.js';

/** A fetch that counts requests and the bytes of their answers, and records the timeseries requests. */
function countingFetch() {
  const seen = { requests: 0, bytes: 0, paths: [] as string[], timeseries: [] as { name: string; datasets: string; start: string; end: string }[] };
  const impl: typeof fetch = async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const response = await fetch(input, init);
    const body = new Uint8Array(await response.arrayBuffer());
    seen.requests++;
    seen.bytes += body.byteLength;
    seen.paths.push(url.pathname);
    if (url.pathname.startsWith('/timeseries/')) {
      const p = url.searchParams;
      seen.timeseries.push({
        name: p.get('RES_NAMES') ?? p.get('STA_NAMES') ?? '',
        datasets: p.get('datasets') ?? '',
        start: p.get('start_date') ?? '',
        end: p.get('end_date') ?? '',
      });
    }
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { impl, seen };
}

/** Every answer of a store that a copy must reproduce. */
async function everything(store: EvapStore) {
  const names = store.manifest.reservoirs.names;
  const stations = store.manifest.stations.names;
  const range = { start: '2000-01-01', end: '2030-12-31' };
  return {
    names,
    stations,
    reservoirMetadata: store.reservoirMetadata(names),
    stationMetadata: store.stationMetadata(stations),
    reservoirs: await store.reservoirTimeseries({ names, datasets: store.listDatasets(), ...range, alsoReturn: ['qflag', 'status'] }),
    stationRecords: await store.stationTimeseries({ names: stations, ...range, alsoReturn: ['status'] }),
  };
}

async function served() {
  const dir = await tempDir();
  await writeTinyStore(dir);
  const store = await openStore(dir);
  const server = await startTestServer({ store });
  const copyDir = await tempDir();
  const full = countingFetch();
  const first = await mirror(copyDir, { baseUrl: server.url, apiKey: server.key, fetch: full.impl });
  expect([first.mode, first.source]).toEqual(['full', store.manifest.sequence]);
  const update = async () => {
    const counted = countingFetch();
    const summary = await mirror(copyDir, { baseUrl: server.url, apiKey: server.key, fetch: counted.impl, update: true });
    const copy = await openStore(copyDir);
    try {
      return { summary, seen: counted.seen, copy: await everything(copy) };
    } finally {
      await copy.close();
    }
  };
  return { dir, store, copyDir, full: full.seen, update };
}

describe('mirror --update from GET /changes', () => {
  it('fetches only the dataset, names and days a revision rewrote, and the copy equals the server', async () => {
    const { dir, store, full, update } = await served();
    const pulled = store.manifest.sequence;
    await revise(dir, { kind: 'values', dataset: 'lem', year: 2021, edits: [{ row: 0, value: 7.5, flag: 1 }] }, 0);
    await store.refresh();
    const lem2021 = (await store.readReservoirPartition('lem', 2021))!; // what the revision rewrote, read from the server's store
    const { summary, seen, copy } = await update();
    expect([summary.mode, summary.why, summary.source]).toEqual(['changes', `GET /changes since snapshot ${pulled}`, pulled + 1]);
    expect(copy).toEqual(await everything(store));
    // one request for the names of the rewritten file, for lem over its days; nothing of 2020, of the other dataset, of the stations
    const names = [...new Set(lem2021.names)].sort();
    const days = [...lem2021.days].sort((a, b) => a - b);
    const iso = (d: number) => new Date(d * 86_400_000).toISOString().slice(0, 10);
    expect(names.length).toBe(2);
    expect(seen.timeseries).toEqual([{ name: names.join(','), datasets: 'lem', start: iso(days[0]!), end: iso(days.at(-1)!) }]);
    expect(summary.records).toBe(lem2021.days.length);
    // no metadata asked (its table did not change): /info/about, /changes and the timeseries
    expect(seen.paths.filter((p) => !p.startsWith('/timeseries/')).sort()).toEqual(['/changes', '/info/about']);
    expect(seen.bytes).toBeLessThan(full.bytes / 3);
    expect(seen.requests).toBeLessThan(full.requests / 3);

    // nothing changed since: nothing fetched, the snapshot recorded again
    const again = await update();
    expect([again.summary.mode, again.summary.chunks, again.summary.snapshot, again.summary.source]).toEqual(['changes', 0, null, pulled + 1]);
  });

  // a station rewritten over its six days: a revision that drops days is not followed (a mirror deletes no row: docs/store.md)
  // and one that empties a variable (RH, all gaps) is not followed either: the copy keeps the column, with gaps, where
  // the server's answer no longer lists it (a mirror deletes nothing; noticed, not fixed)
  const keepingDays = revision.map((r) => (r.kind === 'station' ? { ...r, values: [...r.values, 0, 0, 0, 0, 0, 0].slice(0, 5).concat(null) } : r));

  it('equals the server after any revisions (values, days, a new reservoir with its metadata, a station)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(keepingDays, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 2 }), async (rounds) => {
        const { dir, store, update } = await served();
        let step = 0;
        for (const revisions of rounds) {
          for (const r of revisions) await revise(dir, r, step++);
          await store.refresh();
          const { summary, copy } = await update();
          expect(summary.mode).toBe('changes');
          expect(summary.rejected).toBe(0);
          expect(copy).toEqual(await everything(store));
        }
      }),
      { numRuns: 6 },
    );
  });

  it('compares statuses, and says why, when the server no longer holds the snapshot the copy recorded', async () => {
    const { copyDir, store, update } = await served();
    const progress = JSON.parse(await readFile(join(copyDir, PROGRESS_FILE), 'utf8'));
    await writeFile(join(copyDir, PROGRESS_FILE), JSON.stringify({ ...progress, snapshot: 99 }));
    const { summary, copy } = await update();
    expect(summary.mode).toBe('statuses');
    expect(summary.why).toMatch(/^the server cannot say what changed since snapshot 99: since 99 is after the current snapshot/);
    expect(copy).toEqual(await everything(store));
    expect(JSON.parse(await readFile(join(copyDir, PROGRESS_FILE), 'utf8')).snapshot).toBe(store.manifest.sequence); // asked from there next time
  });
});

describe('planChanges', () => {
  it('asks each changed name, dataset and day once, names with the same datasets and days together, at most 100 a request', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            table: fc.constantFrom('reservoir_lem', 'reservoir_rtma', 'station_timeseries', 'reservoir_metadata', 'reservoir_forecasts'),
            name: fc.integer({ min: 0, max: 250 }).map((n) => `N${String(n).padStart(3, '0')}`),
            span: fc.constantFrom(['2021-01-01', '2021-01-31'], ['2021-02-01', '2021-03-31']),
          }),
          { maxLength: 600 },
        ),
        (entries) => {
          // as GET /changes gives them: one entry per table, name and span
          const unique = [...new Map(entries.map((e) => [`${e.table} ${e.name} ${e.span}`, e])).values()];
          const changes = unique.map(({ table, name, span }) => ({
            table,
            name: table === 'reservoir_forecasts' ? null : name,
            start_date: table === 'reservoir_metadata' ? null : span[0]!,
            end_date: table === 'reservoir_metadata' ? null : span[1]!,
          }));
          const plan = planChanges({ since: 1, current: 2, changes });
          const asked = (requests: typeof plan.reservoirs, table: (d: string | undefined) => string) =>
            requests
              .flatMap((r) => r.names.flatMap((n) => (r.datasets.length ? r.datasets : [undefined]).map((d) => `${table(d)} ${n} ${r.start},${r.end}`)))
              .sort();
          const wanted = (tables: string[]) =>
            unique
              .filter((e) => tables.includes(e.table))
              .map((e) => `${e.table} ${e.name} ${e.span}`)
              .sort();
          expect(asked(plan.reservoirs, (d) => `reservoir_${d}`)).toEqual(wanted(['reservoir_lem', 'reservoir_rtma']));
          expect(asked(plan.stations, () => 'station_timeseries')).toEqual(wanted(['station_timeseries']));
          expect(plan.metadata).toBe(unique.some((e) => e.table === 'reservoir_metadata'));
          for (const r of [...plan.reservoirs, ...plan.stations]) expect(r.names.length).toBeLessThanOrEqual(100);
          // as few requests as the groups of the same datasets and days need
          const groups = new Map<string, number>();
          for (const r of plan.reservoirs) groups.set(`${r.datasets} ${r.start}`, (groups.get(`${r.datasets} ${r.start}`) ?? 0) + r.names.length);
          expect(plan.reservoirs.length).toBe([...groups.values()].reduce((n, names) => n + Math.ceil(names / 100), 0));
        },
      ),
    );
  });
});
