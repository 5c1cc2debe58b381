// Scale-out: three server processes (three ports) over one store in a bucket of a real S3-compatible server, under a
// steady load, while ingests publish new snapshots and vacuum retires the replaced files. Every answer must succeed,
// come whole from one snapshot, and every server must go on to serve each new snapshot (how soon is printed).
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../lib/format/csv.js';
import { ingest, textSource } from '../../lib/ingest/ingest.js';
import { openStore } from '../../lib/open/store.js';
import { vacuumStore } from '../../lib/writer/vacuum.js';
import { writeSmallStore } from '../helpers.js';
import { startTestBucket } from '../support/bucket.js';
import { entryArgs } from '../support/node-entry.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const REFRESH_MS = 500;
const MIN_AGE_MS = 2000;
const LANE_PAUSE_MS = 20; // between one lane's requests: six lanes ask up to about 300 times a second // vacuum's guard for answers in flight on a snapshot just replaced (leases guard open readers)
const bucket = await startTestBucket();
Object.assign(process.env, bucket.env);
const location = bucket.location('served');
await writeSmallStore(location);

const children: ChildProcess[] = [];
afterAll(() => children.forEach((child) => child.kill('SIGKILL')));

const switched = new Map<string, number[]>(); // snapshot -> when each server logged that it serves it

async function startServer(): Promise<string> {
  const child = spawn(process.execPath, entryArgs('server/main.ts'), {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', EVAP_STORE: location, EVAP_API_KEYS: 'k', EVAP_REFRESH_MS: String(REFRESH_MS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let text = '';
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      for (const [, snapshot] of chunk.toString().matchAll(/serving snapshot (\S+)/g))
        switched.set(snapshot!, [...(switched.get(snapshot!) ?? []), Date.now()]);
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.on('exit', () => reject(new Error(`server exited: ${text}`)));
  });
}

const store = await openStore(location);
const names = store.manifest.reservoirs.names;
const rows = await store.reservoirTimeseries({ names, datasets: ['nete-volume-calcs'], variables: ['NetE'], start: '2020-12-25', end: '2021-01-05' });
await store.close();
const path = `/timeseries/daily/reservoirs/daterange?RES_NAMES=${names.map(encodeURIComponent).join(',')}&datasets=nete-volume-calcs&variables=NetE&start_date=2020-12-25&end_date=2021-01-05`;

/** Publishes a snapshot in which every asked NetE (across two years' partitions) is `value`; returns its id. */
async function publish(value: number): Promise<string> {
  const revised = rows.map((r) => ({ ...r, 'NetE (mm)': value }));
  const summary = await ingest(location, [textSource(`round-${value}.csv`, recordsToCsv(revised, Object.keys(revised[0]!)))]);
  expect(summary.replaced).toBe(rows.length);
  return summary.snapshot!;
}

describe('three servers over one bucket', () => {
  it('answer a steady load through ingests and vacuums: none fails, none mixes snapshots, all follow each new one', async () => {
    await publish(1000);
    const urls = await Promise.all([startServer(), startServer(), startServer()]);
    const failures: string[] = [];
    const seen = urls.map(() => new Set<number>()); // per server: the values it has served
    let requests = 0;
    let stop = false;
    const load = async (lane: number) => {
      for (let i = lane; !stop; i++) {
        const server = i % urls.length;
        try {
          const response = await fetch(`${urls[server]}${path}`, { headers: { 'api-key': 'k' } });
          const body = (await response.json()) as Record<string, unknown>[];
          requests++;
          const values = new Set(Array.isArray(body) ? body.map((r) => r['NetE (mm)']) : []);
          if (response.status !== 200 || body.length !== rows.length || values.size !== 1) {
            failures.push(`${urls[server]}: ${response.status}, ${body.length} records, values ${[...values].join(' ')}`);
          } else seen[server]!.add([...values][0] as number);
        } catch (error) {
          failures.push(`${urls[server]}: ${(error as Error).message}`);
        }
        // a steady load, not a flood: six lanes as fast as they could go took both cores from the rest of the suite
        await new Promise((resolve) => setTimeout(resolve, LANE_PAUSE_MS));
      }
    };
    const lanes = Array.from({ length: 6 }, (_, lane) => load(lane));
    const removed: number[] = [];
    const lags: number[] = [];
    for (const value of [1001, 1002, 1003]) {
      const snapshot = await publish(value);
      const published = Date.now();
      // each server switches at its next refresh; how soon is measured (and printed), not asserted: on a loaded
      // machine a refresh's own reads take what they take, so the wait is only bounded against a hang
      await expect.poll(() => switched.get(snapshot)?.length ?? 0, { timeout: 30_000, interval: 20 }).toBe(urls.length);
      lags.push(Math.max(...switched.get(snapshot)!.map((t) => t - published)));
      await expect.poll(() => seen.every((s) => s.has(value)), { timeout: 30_000, interval: 20 }).toBe(true);
      // vacuum retires a file once the snapshot that replaced it is MIN_AGE_MS old: only the rest of that is waited
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, published + MIN_AGE_MS - Date.now())));
      removed.push((await vacuumStore(location, { minAgeMs: MIN_AGE_MS })).removed.length);
    }
    stop = true;
    await Promise.all(lanes);
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(30);
    expect(removed.every((n) => n > 0)).toBe(true); // each vacuum retired the files a round replaced
    console.log(
      `three servers over a bucket: ${requests} answers, files retired per vacuum ${removed.join(', ')}, slowest switch to a new snapshot ${Math.max(...lags)} ms`,
    );
  }, 180_000);
});
