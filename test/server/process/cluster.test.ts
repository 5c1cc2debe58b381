// `npm start -- --workers N` as real processes on loopback: one port, a dead worker replaced, SIGTERM drains every
// worker, and the rate limit counted once for the whole cluster.
import { readFileSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { readKeyRequests } from '../../../server/keys/requests.js';
import { day, tempDir, writeTinyStore } from '../../helpers.js';
import { alive } from '../../support/alive.js';
import { type SpawnedServer, spawnMain } from '../harness.js';

interface Cluster extends SpawnedServer {
  workers: () => number[]; // the primary's child processes
}

async function startCluster(env: Record<string, string>, args: string[]): Promise<Cluster> {
  const main = await spawnMain(env, args);
  const workers = () =>
    readFileSync(`/proc/${main.child.pid}/task/${main.child.pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((p) => p !== '')
      .map(Number);
  return { ...main, workers };
}

async function until<T>(probe: () => T | undefined, ms: number, why: () => string): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const value = probe();
    if (value !== undefined) return value;
  }
  throw new Error(why());
}

// One request on a connection of its own (node:cluster hands each new connection to the next worker in turn).
function ask(url: string, path: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(`${url}${path}`, { headers: { 'api-key': key }, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function reservoirNames(url: string): Promise<string[]> {
  const response = await fetch(`${url}/info/list_RES_NAMES`, { method: 'POST', headers: { 'api-key': 'drain-key' } });
  return ((await response.json()) as { RES_NAMES: string[] }).RES_NAMES;
}

// A request whose answer is left unread until resume(): `started` when its status line is in.
function askPaused(url: string, path: string, key: string): { started: Promise<void>; resume(): void; done: Promise<{ status: number; body: string }> } {
  let resume = () => {};
  let started!: Promise<void>;
  const done = new Promise<{ status: number; body: string }>((resolve, reject) => {
    started = new Promise((begun) => {
      const req = httpGet(`${url}${path}`, { headers: { 'api-key': key }, agent: false }, (res) => {
        res.pause();
        begun();
        const chunks: Buffer[] = [];
        resume = () => {
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.resume();
        };
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  });
  return { started, resume: () => resume(), done };
}

describe('npm start -- --workers N', () => {
  it('serves one port from N processes, prints the key and the ready line once, and replaces a worker that dies', async () => {
    const cluster = await startCluster({}, ['--workers', '2']);
    const keys = cluster
      .output()
      .split('\n')
      .filter((l) => l.startsWith('api-key: '));
    expect(keys).toHaveLength(1);
    expect(cluster.output().match(/listening on/g)).toHaveLength(1);
    const key = keys[0]!.slice('api-key: '.length);
    for (let i = 0; i < 4; i++) expect((await ask(cluster.url, '/info/list_datasets', key)).status).toBe(200); // the generated key works on every worker
    const [first, second] = cluster.workers();
    expect([first, second].every((pid) => pid !== undefined && alive(pid))).toBe(true);
    process.kill(first!, 'SIGKILL');
    const replacement = await until(
      () => new RegExp(`worker ${first} exited \\(SIGKILL\\); started worker (\\d+) in its place`).exec(cluster.output())?.[1],
      30_000,
      () => `no replacement: ${cluster.output()}`,
    );
    await until(
      () => (cluster.workers().length === 2 && cluster.workers().includes(Number(replacement)) ? true : undefined),
      30_000,
      () => `workers: ${cluster.workers().join(',')}`,
    );
    // the replacement serves: requests go round the workers, and none fails meanwhile
    for (let i = 0; i < 6; i++) expect((await ask(cluster.url, '/info/list_datasets', key)).status).toBe(200);
    expect(cluster.workers()).not.toContain(first);
    cluster.child.kill('SIGTERM');
    expect(await cluster.exited).toBe(0);
  }, 120_000);

  it('drains every worker on SIGTERM, then exits 0', async () => {
    const cluster = await startCluster({ EVAP_API_KEYS: 'drain-key' }, ['--workers', '2']);
    const workers = cluster.workers();
    expect(workers).toHaveLength(2);
    const names = await reservoirNames(cluster.url);
    const long = `/timeseries/daily/reservoirs/daterange?RES_NAMES=${encodeURIComponent(names.join(','))}&start_date=2019-01-01&end_date=2021-12-31`;
    // two large answers (one per worker), not read until the signal has come: each is still being sent then
    const answers = [0, 1].map(() => askPaused(cluster.url, long, 'drain-key'));
    await Promise.all(answers.map((a) => a.started));
    cluster.child.kill('SIGTERM');
    await until(
      () => (cluster.output().match(/SIGTERM: finishing in-flight requests/g)?.length === 2 ? true : undefined),
      30_000,
      () => cluster.output(),
    );
    answers.forEach((a) => a.resume());
    for (const answer of await Promise.all(answers.map((a) => a.done))) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toHaveLength(names.length * 1096); // whole, not cut
    }
    expect(await cluster.exited).toBe(0);
    expect(workers.filter(alive)).toEqual([]);
  }, 120_000);

  it('has every worker serve a snapshot that an ingest publishes', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const cluster = await startCluster({ EVAP_STORE: dir, EVAP_API_KEYS: 'k', EVAP_REFRESH_MS: '100' }, ['--workers', '2']);
    const value = async () =>
      JSON.parse((await ask(cluster.url, '/timeseries/stations/daterange?STA_NAMES=ALPHA_STATION&start_date=2021-01-01&end_date=2021-01-01', 'k')).body)[0][
        'ATemp (degC)'
      ];
    expect([await value(), await value()]).toEqual([2, 2]);
    const writer = createStoreWriter(dir, { base: (await openStore(dir)).manifest });
    await writer.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(42) } });
    await writer.commit();
    await until(
      () => (cluster.output().split(`serving snapshot ${writer.snapshot}`).length === 3 ? true : undefined),
      10_000,
      () => cluster.output(),
    ); // one line per worker
    for (let i = 0; i < 4; i++) expect(await value()).toBe(42); // round the workers
    cluster.child.kill('SIGTERM');
    expect(await cluster.exited).toBe(0);
  }, 120_000);

  it('counts the rate limit once per key for the whole cluster', async () => {
    const cluster = await startCluster({ EVAP_API_KEYS: 'key-a,key-b', EVAP_RATE_LIMIT_PER_MINUTE: '6' }, ['--workers', '2']);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await ask(cluster.url, '/info/list_datasets', 'key-a')).status); // 6 on each worker
    expect(statuses.filter((s) => s === 200)).toHaveLength(6); // per-worker counters allowed 12
    expect(statuses.slice(6)).toEqual(Array(6).fill(429));
    expect((await ask(cluster.url, '/info/list_datasets', 'key-b')).status).toBe(200);
    cluster.child.kill('SIGTERM');
    expect(await cluster.exited).toBe(0);
  }, 120_000);
  it('keeps the primary alive when workers die while it still owes them answers to rate-limit asks, and answers again on the port it announced for --port 0', async () => {
    const cluster = await startCluster({ EVAP_API_KEYS: 'k', EVAP_RATE_LIMIT_PER_MINUTE: '1000' }, ['--workers', '2']);
    const primary = cluster.child.pid!;
    // two keep-alive connections, one on each worker (node:cluster deals connections out in turn), open before the pause
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    const keyed = () =>
      new Promise<void>((resolve) => {
        const req = httpGet(`${cluster.url}/info/list_datasets`, { headers: { 'api-key': 'k' }, agent }, (res) => res.resume().on('end', resolve));
        req.on('error', () => resolve()); // the worker is killed under it
        // a connection node:cluster's primary took while no worker was left may never be answered: not this test's subject
        req.setTimeout(10_000, () => req.destroy());
      });
    await Promise.all([keyed(), keyed()]);
    const workers = cluster.workers();
    process.kill(primary, 'SIGSTOP'); // a busy primary: the workers' asks queue in its channels
    const pending = [keyed(), keyed(), keyed(), keyed()];
    await new Promise((resolve) => setTimeout(resolve, 300)); // time for the workers to send their asks
    for (const pid of workers) process.kill(pid, 'SIGKILL');
    // dead, though unreaped while their parent is stopped: a zombie ('Z' in /proc/PID/stat)
    const running = (pid: number) => / [^Z] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\)/, '').slice(0, 3));
    await until(
      () => (workers.some(running) ? undefined : true),
      10_000,
      () => 'workers still running',
    );
    process.kill(primary, 'SIGCONT'); // it now answers asks whose workers are gone
    await Promise.all(pending);
    agent.destroy();
    await until(
      () => (cluster.workers().length === 2 && cluster.workers().every((pid) => !workers.includes(pid)) ? true : undefined),
      30_000,
      () => `no replacements: ${cluster.output()}`,
    );
    expect(alive(primary)).toBe(true);
    expect(cluster.output()).not.toMatch(/Unhandled 'error' event/);
    // with every worker gone the port was closed: the replacements open the same one (it was port 0, made concrete)
    for (
      const end = Date.now() + 30_000;
      !(await ask(cluster.url, '/info/list_datasets', 'k').then(
        (r) => r.status === 200,
        () => false,
      ));
    ) {
      if (Date.now() > end) throw new Error(`${cluster.url} never answered again: ${cluster.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (let i = 0; i < 4; i++) expect((await ask(cluster.url, '/info/list_datasets', 'k')).status).toBe(200);
    cluster.child.kill('SIGTERM');
    expect(await cluster.exited).toBe(0);
  }, 120_000);
  it('counts key requests once for the whole cluster: 10 a minute, whichever worker takes them', async () => {
    const dir = await tempDir();
    const cluster = await startCluster({ EVAP_API_KEYS: 'k', EVAP_REQUESTS_FILE: join(dir, 'requests') }, ['--workers', '2']);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const fields = new URLSearchParams({ name: `Client ${i}`, email: `c${i}@example.com`, justification: 'reservoir losses' });
      statuses.push((await ask(cluster.url, `/auth/request_key?${fields}`, '')).status); // each on a new connection: round the workers
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(10); // each worker counting its own took 20
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    expect(await readKeyRequests(join(dir, 'requests'))).toHaveLength(10);
    cluster.child.kill('SIGTERM');
    expect(await cluster.exited).toBe(0);
  }, 120_000);
});
