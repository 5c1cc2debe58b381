// What a nightly `evap mirror --update` costs against an evap server, beside a full copy: the bench store served by
// `evap serve` in its own process, a full mirror, then revisions of the last 5, 20 and 65 days of every water body
// (nete-volume-calcs through `evap ingest`, as OWEN reprocesses daily), each followed by an update that asks GET
// /changes; last, the 65-day revision again, updated as from the public service (no /changes: the copy's statuses).
// Requests and the bytes of their answers (JSON, as decoded) are counted in the mirror's fetch; after each update the
// copy is compared with the server over the revised days.
// `npm run bench:mirror -- [--reservoirs 5000] [--start 2025-01-01] [--end 2025-12-31] [--days 5,20,65] [--smoke]`
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../lib/open/store.js';
import type { Manifest } from '../lib/store/manifest.js';
import { createClient } from '../lib/sync/client.js';
import { type MirrorSummary, mirror } from '../lib/sync/mirror.js';
import { diffSnapshots } from '../lib/tables/changes.js';
import { startServer } from './http.js';
import { reviseLastDays } from './scale.js';
import { ensureStore, type StoreScale, smokeScale } from './store.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    reservoirs: { type: 'string', default: '5000' },
    start: { type: 'string', default: '2025-01-01' },
    end: { type: 'string', default: '2025-12-31' },
    days: { type: 'string', default: '5,20,65' },
    smoke: { type: 'boolean' },
  },
});
const scale: StoreScale = values.smoke
  ? smokeScale
  : { reservoirs: Number(values.reservoirs), stations: 60, start: values.start!, end: values.end!, stationStart: values.start!, stationEnd: values.end! };
const log = (line: string) => process.stderr.write(`${line}\n`);
const MiB = (n: number) => `${(n / 2 ** 20).toFixed(2)} MiB`;

const made = await ensureStore(join(tmpdir(), `evap-bench-mirror-store-${scale.reservoirs}-${scale.start}-${scale.end}`), scale, log);
// the largest /changes answer this store can give: since a snapshot that held none of its files (as JSON)
const largest = await openStore(made.dir).then(async (store) => {
  const m = store.manifest;
  const none: Manifest = {
    ...m,
    datasets: {},
    reservoirs: { ...m.reservoirs, metadata: null },
    stations: { ...m.stations, metadata: null, partitions: {} },
    forecasts: [],
  };
  const answer = diffSnapshots(none, m);
  await store.close();
  return { entries: answer.changes.length, bytes: JSON.stringify(answer).length };
});
log(`/changes since a snapshot without any of the store's files: ${largest.entries} entries, ${(largest.bytes / 1024).toFixed(0)} KiB`);

const work = await mkdtemp(join(tmpdir(), 'evap-bench-mirror-'));
const serverDir = join(work, 'server'); // the revisions change it: the bench store stays as made
const copyDir = join(work, 'copy');
await cp(made.dir, serverDir, { recursive: true });
const server = await startServer(serverDir);

/** A fetch that counts requests and the bytes of their answers. */
function counting(withoutChanges = false) {
  const seen = { requests: 0, bytes: 0, changesBytes: 0 };
  const impl: typeof fetch = async (input, init) => {
    const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
    // as the public service answers a path it lacks
    const response = withoutChanges && path === '/changes' ? Response.json({ detail: 'Not Found' }, { status: 404 }) : await fetch(input, init);
    const body = new Uint8Array(await response.arrayBuffer());
    seen.requests++;
    seen.bytes += body.byteLength;
    if (path === '/changes') seen.changesBytes += body.byteLength;
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { impl, seen };
}

async function run(
  update: boolean,
  withoutChanges = false,
): Promise<{ summary: MirrorSummary; requests: number; bytes: number; changesBytes: number; ms: number }> {
  const { impl, seen } = counting(withoutChanges);
  const began = performance.now();
  const summary = await mirror(copyDir, { baseUrl: server.url, apiKey: server.key, fetch: impl, update, concurrency: 4 });
  return { summary, ...seen, ms: performance.now() - began };
}

// the records over the last `days` days (and 5 more) where the copy answers otherwise than the server (asked over HTTP)
async function differing(days: number, end: string): Promise<number> {
  const copy = await openStore(copyDir);
  const client = createClient(server.url, { apiKey: server.key });
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - (days + 5) * 86_400_000).toISOString().slice(0, 10);
  const names = copy.manifest.reservoirs.names;
  let differ = 0;
  try {
    for (let i = 0; i < names.length; i += 500) {
      const query = { names: names.slice(i, i + 500), datasets: ['nete-volume-calcs'], start, end, alsoReturn: ['qflag', 'status'] };
      const [ours, theirs] = [await copy.reservoirTimeseries(query), await client.reservoirTimeseries(query)];
      if (ours.length !== theirs.length) throw new Error(`the copy has ${ours.length} records over ${start}..${end} where the server has ${theirs.length}`);
      differ += ours.filter((r, k) => JSON.stringify(r) !== JSON.stringify(theirs[k])).length;
    }
    return differ;
  } finally {
    await copy.close();
  }
}

// waits for the server to serve snapshot `sequence` (it looks for new snapshots every 5 s)
async function served(sequence: number): Promise<void> {
  const client = createClient(server.url, { apiKey: server.key });
  while ((await client.changes({ since: '9999-12-31' })).current < sequence) await new Promise((done) => setTimeout(done, 250));
}

const rows: string[] = [];
try {
  log(`full mirror of ${scale.reservoirs} water bodies ${scale.start}..${scale.end} and ${scale.stations} stations`);
  const full = await run(false);
  log(`full: ${full.requests} requests, ${MiB(full.bytes)}, ${full.summary.records} records, ${(full.ms / 1000).toFixed(1)} s`);
  rows.push(`| full copy | ${full.requests} | ${MiB(full.bytes)} | ${full.summary.records} | 100% | ${(full.ms / 1000).toFixed(1)} s | | |`);
  // each revision then an update asking /changes; last, the longest revision again, updated as from the public service
  const revisions = (values.days ?? '').split(',').map(Number);
  for (const [i, days] of [...revisions, revisions.at(-1)!].entries()) {
    const statuses = i === revisions.length;
    const manifest = (await openStore(serverDir).then(async (s) => [s.manifest, await s.close()] as const))[0];
    const revision = await reviseLastDays(serverDir, manifest, days, log, { vacuum: false });
    await served(manifest.sequence + 1);
    const update = await run(true, statuses);
    if (update.summary.mode !== (statuses ? 'statuses' : 'changes')) throw new Error(`the update was by ${update.summary.mode}: ${update.summary.why}`);
    // the statuses miss what a revision changes of days the copy holds as Final (the generator's last 63 days are not)
    const differ = await differing(days, manifest.datasets['nete-volume-calcs']!.partitions.at(-1)!.end);
    if (differ > 0 && !statuses) throw new Error(`after the update, ${differ} records of the copy differ from the server's`);
    const share = `${((100 * update.bytes) / full.bytes).toFixed(1)}%`;
    log(
      `${days}-day revision (${revision.filesWritten} files rewritten): update ${update.requests} requests, ${MiB(update.bytes)} (${share}), ` +
        `${update.summary.records} records, /changes ${(update.changesBytes / 1024).toFixed(0)} KiB, ${(update.ms / 1000).toFixed(1)} s; ${differ} records still differ`,
    );
    rows.push(
      `| ${days}-day revision, then --update${statuses ? ' without /changes (statuses)' : ''} | ${update.requests} | ${MiB(update.bytes)} | ${update.summary.records} | ${share} | ${(update.ms / 1000).toFixed(1)} s | ${(update.changesBytes / 1024).toFixed(0)} KiB | ${differ} |`,
    );
  }
} finally {
  await server.stop();
  await rm(work, { recursive: true, force: true });
}
console.log(`/changes since a snapshot without any of the store's files: ${largest.entries} entries, ${(largest.bytes / 1024).toFixed(0)} KiB (JSON)\n`);
console.log(
  `| run | requests | bytes (JSON) | records | of a full copy | time | /changes answer | records still differing |\n|---|---:|---:|---:|---:|---:|---:|---:|\n${rows.join('\n')}`,
);
