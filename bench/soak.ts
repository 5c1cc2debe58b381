// `npm run soak`: the server in a child process under a steady mix of documented queries on loopback (autocannon), with
// hostile clients beside it (pipelined bursts left by resets, gzip clients that never read, slow readers: test/support/hostile.ts)
// and a small query asked every 250 ms; fails on any error or non-2xx answer of the load or of the small query, or when
// the server's resident memory does not level off (its last third past the peak of the first two by a bound). The
// small query's latency is reported, not bounded.
// Options: --duration S (60), --warmup S (10), --connections N (32), --store DIR (the demo store), --no-hostile.
// --kill-worker-every S: serve with two workers and a rate limit (every keyed request asks the primary) and SIGKILL a
// worker every S seconds; then the run passes when the primary is alive at the end and the small query answers again
// (answers cut by a kill are counted, not failed on, and the memory bound is not checked).
// Beside the load, clients that count what became of each of their requests (test/support/outcomes.ts): ordinary
// clients asking a heavy answer again and again (they wait at the gate), readers taking one at 250 KB/s, uploaders
// trickling 16 bytes every --trickle-ms; the run fails when any request goes unanswered, is cut, or gets a 503 without
// Retry-After. --close-log-at S closes the server's stdout (its access log) S seconds into the run, as a dead `| tee`
// would: the server must serve on, say so on stderr, and be alive at the end. --workers N serves with N workers.
// --no-slow leaves those clients out; --no-rss-bound skips the memory bound (runs of seconds, as the test's).

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { alive } from '../test/support/alive.js';
import { probeSmallQuery, startHostileClients } from '../test/support/hostile.js';
import { describeOutcomes, type Outcomes, startSlowClients } from '../test/support/outcomes.js';
import { percentile } from './timing.js';

// autocannon's `requests` option (a sequence each connection cycles through), which bench/autocannon.d.ts leaves out
type SoakRequest = { method: string; path: string; headers: Record<string, string>; body?: Buffer };
type Options = Parameters<typeof autocannon>[0] & { requests: SoakRequest[] };

const root = fileURLToPath(new URL('../', import.meta.url));
// RSS must level off: the last third of the run may not rise past the peak of the first two thirds by more than this
// (a bound on growth after the warm-up failed at load average 12, where the warm-up's 33 requests filled no cache)
const growthBound = (early: number) => Math.max(32 * 2 ** 20, early * 0.1);

// Documented queries over the demo store's example names, each a different shape of work.
const boundary = 'soak0boundary';
const formType = `multipart/form-data; boundary=${boundary}`;

/** The four files of a real shapefile as one multipart body, as /info/list_STA_NAMES takes them. */
function shapefileForm(): Buffer {
  const dir = join(root, 'test/fixtures/shapefiles/colorado_wgs84');
  return Buffer.concat([
    ...['shp', 'dbf', 'prj', 'shx'].flatMap((ext) => [
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="shapefile_${ext}"; filename="colorado.${ext}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
      ),
      readFileSync(join(dir, `colorado_wgs84.${ext}`)),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
}

function mixedRequests(key: string): SoakRequest[] {
  const headers = { 'api-key': key, 'accept-encoding': 'gzip' };
  const get = (path: string) => ({ method: 'GET', path, headers });
  const form = shapefileForm();
  return [
    get('/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20ALICE,LAKE%20ESTES&start_date=2020-01-01&end_date=2020-12-31'),
    get(
      '/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MEAD,LAKE%20POWELL&datasets=nete-volume-calcs&units=english&output_format=csv&start_date=2019-01-01&end_date=2021-12-31',
    ),
    get('/timeseries/daily/reservoirs/date?date=2020-07-01&also_return=qflag'),
    get('/timeseries/stations/daterange?STA_NAMES=LAKE%20MEAD_STATION,BLW_STATION&start_date=2020-01-01&end_date=2020-06-30'),
    get('/timeseries/stations/date?date=2020-01-15&output_format=csv'),
    get('/info/list_datasets'),
    get('/info/list_variables?dataset=lem'),
    get('/info/list_dates?dataset=rtma&variable=pr'),
    { method: 'POST', path: '/info/list_RES_NAMES', headers },
    { method: 'POST', path: '/info/list_STA_NAMES', headers: { ...headers, 'content-type': formType }, body: form },
    get('/info/list_stations_variables?STA_NAMES=ABERDEEN_STATION'),
    get('/info/list_stations_dates'),
    get('/metadata/reservoirs?RES_NAMES=LAKE%20ALICE,LAKE%20ESTES,RUEDI%20RESERVOIR'),
    get('/metadata/stations?STA_NAMES=ABIQUIU%20DAM_STATION'),
  ];
}

function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

async function startServer(
  store: string | undefined,
  key: string,
  connections: number,
  extra: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; logLossSaid(): boolean }> {
  // each client address (the load on 127.0.0.1, each kind of hostile client on its own) may hold twice the load's
  // connections (a slot is given back a moment after its answer reached the client, which may have asked again);
  // together they stay under the server's bound, so the load is never refused for what the hostile clients hold
  const limits = { EVAP_MAX_PER_CLIENT: String(2 * connections), EVAP_MAX_CONCURRENT: String(9 * connections), EVAP_STALL_TIMEOUT_MS: '5000' };
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/main.ts')], {
    cwd: root,
    env: { ...process.env, ...(store ? { EVAP_STORE: store } : {}), ...limits, EVAP_API_KEYS: key, PORT: '0', HOST: '127.0.0.1', ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let logLossSaid = false; // looked for as it comes: the tail kept may have lost it by the end
  child.stderr!.on('data', (c: Buffer) => {
    logLossSaid ||= (stderr.slice(-64) + c.toString()).includes('access log: stdout cannot be written');
    stderr = (stderr + c.toString()).slice(-8192);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (c: Buffer) => {
      seen += c.toString();
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the server exited with ${code} before listening: ${stderr}`)));
  });
  child.stdout!.removeAllListeners('data');
  child.stdout!.resume(); // access lines: drained, not kept
  child.on('exit', (code, signal) => code !== 0 && console.error(`the server exited (${code ?? signal}): ${stderr}`));
  return { child, url, logLossSaid: () => logLossSaid };
}

const sum = <T>(items: T[], of: (item: T) => number) => items.reduce((total, item) => total + of(item), 0);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const pauseMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Every `everyMs`, a busy primary (stopped 300 ms, so keyed requests' asks queue in its channels) and one of its
// workers, the first and the second in turn, SIGKILLed meanwhile; stop() gives the count
function killWorkers(primary: number, everyMs: number): { stop(): Promise<number> } {
  let kills = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      await pauseMs(everyMs);
      const workers = readFileSync(`/proc/${primary}/task/${primary}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      const victim = workers[kills % Math.max(1, workers.length)];
      if (victim === undefined) continue;
      process.kill(primary, 'SIGSTOP');
      await pauseMs(300);
      try {
        process.kill(victim, 'SIGKILL');
        kills++;
      } catch {
        // it died on its own meanwhile
      }
      process.kill(primary, 'SIGCONT');
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return kills;
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '60' },
      warmup: { type: 'string', default: '10' },
      connections: { type: 'string', default: '32' },
      store: { type: 'string' },
      'no-hostile': { type: 'boolean', default: false },
      'kill-worker-every': { type: 'string' },
      'no-slow': { type: 'boolean', default: false },
      workers: { type: 'string' },
      'close-log-at': { type: 'string' },
      'no-rss-bound': { type: 'boolean', default: false },
      'trickle-ms': { type: 'string', default: '5000' },
      'body-grace-ms': { type: 'string' },
    },
  });
  const [duration, warmup, connections] = [Number(values.duration), Number(values.warmup), Number(values.connections)];
  const killEveryMs = values['kill-worker-every'] === undefined ? undefined : Number(values['kill-worker-every']) * 1000;
  const key = randomBytes(16).toString('hex');
  const closeLogAtMs = values['close-log-at'] === undefined ? undefined : Number(values['close-log-at']) * 1000;
  const cluster: Record<string, string> = {
    ...(killEveryMs === undefined ? {} : { EVAP_WORKERS: '2', EVAP_RATE_LIMIT_PER_MINUTE: '100000000' }),
    ...(values.workers === undefined ? {} : { EVAP_WORKERS: values.workers }),
    ...(values['body-grace-ms'] === undefined ? {} : { EVAP_BODY_GRACE_MS: values['body-grace-ms'] }),
  };
  const { child, url, logLossSaid } = await startServer(values.store, key, connections, cluster);
  const pid = child.pid!;
  const requests = mixedRequests(key);
  const run = (seconds: number) => {
    const options: Options = { url, connections, duration: seconds, timeout: 30, requests };
    return autocannon(options);
  };
  try {
    const rssStart = rssBytes(pid);
    // the hostile clients and the small query start with the warm-up, so that the memory bound is on their steady state too
    const names = ((await (await fetch(`${url}/info/list_RES_NAMES`, { method: 'POST', headers: { 'api-key': key } })).json()) as { RES_NAMES: string[] })
      .RES_NAMES;
    const largePath = `/timeseries/daily/reservoirs/daterange?RES_NAMES=${encodeURIComponent(names.join(','))}&start_date=2019-01-01&end_date=2021-12-31`;
    const hostile = values['no-hostile'] ? undefined : startHostileClients({ url, key, largePath, stallMs: 8000 });
    const slow = values['no-slow']
      ? undefined
      : startSlowClients({
          url,
          key,
          heavyPath: `${largePath}&output_format=parquet`, // heavy at Parquet's weight even on the demo store
          uploadPath: '/info/list_STA_NAMES',
          upload: shapefileForm(),
          uploadType: formType,
          trickleMs: Number(values['trickle-ms']),
        });
    const probe = probeSmallQuery(url, key);
    const warm = await run(warmup);
    const rssWarm = rssBytes(pid);
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssBytes(pid)), 1000);
    const killer = killEveryMs === undefined ? undefined : killWorkers(pid, killEveryMs);
    // a log reader that dies: the pipe's read end closed, so the server's next access line meets EPIPE
    const logCloser = closeLogAtMs === undefined ? undefined : setTimeout(() => child.stdout!.destroy(), closeLogAtMs);
    const result = await run(duration);
    clearTimeout(logCloser);
    const kills = await killer?.stop();
    let recovered = true; // the replacements answer again: asked until they do
    if (killer) for (const end = Date.now() + 30_000; !(recovered = (await probeOnce(url, key)) === 200) && Date.now() < end; ) await pauseMs(200);
    const small = await probe.stop();
    const hostileStats = await hostile?.stop();
    const outcomes = await slow?.stop();
    const counted = outcomes ? Object.values(outcomes) : [];
    // a 503 must carry Retry-After; a 408 is the answer to a body too slow; any other refusal means the client was wrong
    const unanswered = sum(counted, (o) => o.unanswered + o.cut);
    const wrong = sum(counted, (o) => sum(Object.entries(o.refused), ([status, n]) => (status === '408' ? 0 : n)));
    clearInterval(sampler);
    const rssEnd = rssBytes(pid);
    const errors = result.errors + result.timeouts + result.non2xx + warm.errors + warm.timeouts + warm.non2xx;
    const smallFailed = small.statuses.filter((status) => status !== 200).length;
    const at = (q: number) => (percentile(small.latenciesMs, q) ?? NaN).toFixed(0);
    const split = Math.floor((samples.length * 2) / 3);
    const early = Math.max(rssWarm, ...samples.slice(0, split));
    const late = Math.max(rssEnd, ...samples.slice(split));
    const bound = early + growthBound(early);
    console.log(`soak: ${duration} s at concurrency ${connections} on ${url}, ${requests.length} documented queries in turn (after ${warmup} s of warm-up)`);
    console.log(
      `  requests  ${result.requests.total} (warm-up ${warm.requests.total}), ${(result.requests.total / result.duration).toFixed(0)} req/s, ${mb(result.throughput.average)}/s`,
    );
    console.log(`  latency   p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
    console.log(
      `  errors    ${errors} (connection ${result.errors + warm.errors}, timeouts ${result.timeouts + warm.timeouts}, non-2xx ${result.non2xx + warm.non2xx})`,
    );
    console.log(
      `  small     ${small.statuses.length} asks of /info/list_datasets, ${smallFailed} not 200; latency p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`,
    );
    console.log(
      `  hostile   ${hostileStats ? `${hostileStats.bursts} pipelined bursts, ${hostileStats.stalls} non-reading gzip clients (${hostileStats.stalledClosed} closed by the server), ${mb(hostileStats.slowBytes)} read by slow readers` : 'none (--no-hostile)'}`,
    );
    console.log(
      `  RSS every 10 s: ${samples
        .filter((_, i) => i % 10 === 9)
        .map(mb)
        .join(', ')}`,
    );
    console.log(
      `  RSS       at start ${mb(rssStart)}, after warm-up ${mb(rssWarm)}, peak ${mb(early)} in the first two thirds and ${mb(late)} in the last (bound ${mb(bound)}), at the end ${mb(rssEnd)}`,
    );
    if (outcomes) for (const [kind, o] of Object.entries(outcomes) as [string, Outcomes][]) console.log(`  ${kind.padEnd(12)} ${describeOutcomes(o)}`);
    const logNotice = logLossSaid();
    if (closeLogAtMs !== undefined)
      console.log(
        `  log pipe  closed at ${closeLogAtMs / 1000} s; server ${alive(pid) ? 'alive' : 'DEAD'}, ${logNotice ? 'said so on stderr' : 'SAID NOTHING'}`,
      );
    if (kills !== undefined) console.log(`  killed    ${kills} workers (one every ${killEveryMs} ms); primary ${alive(pid) ? 'alive' : 'DEAD'} at the end`);
    const failures =
      kills === undefined
        ? [
            ...(errors > 0 ? [`${errors} errors`] : []),
            ...(smallFailed > 0 ? [`the small query failed ${smallFailed} times`] : []),
            ...(late > bound && !values['no-rss-bound'] ? [`RSS still grew in the last third of the run, to ${mb(late)}, past ${mb(bound)}`] : []),
            ...(unanswered > 0 ? [`${unanswered} requests of the slow clients unanswered or cut`] : []),
            ...(wrong > 0 ? [`${wrong} requests of the slow clients refused with a status other than 408 or 503 with Retry-After`] : []),
            ...(closeLogAtMs !== undefined && !alive(pid) ? ['the server died after its log pipe closed'] : []),
            ...(closeLogAtMs !== undefined && !logNotice ? ['the server did not say on stderr that its log was lost'] : []),
          ]
        : [...(alive(pid) ? [] : ['the primary died']), ...(recovered ? [] : ['the small query did not answer again within 30 s of the last kill'])];
    if (failures.length > 0) {
      console.error(`soak failed: ${failures.join('; ')}`);
      process.exitCode = 1;
    } else console.log('soak passed');
  } finally {
    child.kill('SIGTERM');
  }
}

async function probeOnce(url: string, key: string): Promise<number> {
  return fetch(`${url}/info/list_datasets`, { headers: { 'api-key': key } }).then(
    (r) => r.status,
    () => 0,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
