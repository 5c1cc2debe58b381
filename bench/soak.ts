// `npm run soak`: the server in a child process under a steady mix of documented queries on loopback (autocannon); fails on
// any error or non-2xx answer, or when its resident memory after warm-up grows past a bound.
// Options: --duration S (60), --warmup S (10), --connections N (32), --store DIR (the demo store).
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

// autocannon's `requests` option (a sequence each connection cycles through), which bench/autocannon.d.ts leaves out
type SoakRequest = { method: string; path: string; headers: Record<string, string>; body?: Buffer };
type Options = Parameters<typeof autocannon>[0] & { requests: SoakRequest[] };

const root = fileURLToPath(new URL('../', import.meta.url));
const growthBound = (warm: number) => Math.max(64 * 2 ** 20, warm * 0.25); // RSS may grow this much after warm-up

// Documented queries over the demo store's example names, each a different shape of work.
function mixedRequests(key: string): SoakRequest[] {
  const headers = { 'api-key': key, 'accept-encoding': 'gzip' };
  const get = (path: string) => ({ method: 'GET', path, headers });
  const boundary = 'soak0boundary';
  const dir = join(root, 'test/fixtures/shapefiles/colorado_wgs84');
  const form = Buffer.concat([
    ...['shp', 'dbf', 'prj', 'shx'].flatMap((ext) => [
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="shapefile_${ext}"; filename="colorado.${ext}"\r\ncontent-type: application/octet-stream\r\n\r\n`),
      readFileSync(join(dir, `colorado_wgs84.${ext}`)),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return [
    get('/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20ALICE,LAKE%20ESTES&start_date=2020-01-01&end_date=2020-12-31'),
    get('/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MEAD,LAKE%20POWELL&datasets=nete-volume-calcs&units=english&output_format=csv&start_date=2019-01-01&end_date=2021-12-31'),
    get('/timeseries/daily/reservoirs/date?date=2020-07-01&also_return=qflag'),
    get('/timeseries/stations/daterange?STA_NAMES=LAKE%20MEAD_STATION,BLW_STATION&start_date=2020-01-01&end_date=2020-06-30'),
    get('/timeseries/stations/date?date=2020-01-15&output_format=csv'),
    get('/info/list_datasets'),
    get('/info/list_variables?dataset=lem'),
    get('/info/list_dates?dataset=rtma&variable=pr'),
    { method: 'POST', path: '/info/list_RES_NAMES', headers },
    { method: 'POST', path: '/info/list_STA_NAMES', headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, body: form },
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

async function startServer(store: string | undefined, key: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/main.ts')], {
    cwd: root,
    env: { ...process.env, ...(store ? { EVAP_STORE: store } : {}), EVAP_API_KEYS: key, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-8192)));
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
  return { child, url };
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { duration: { type: 'string', default: '60' }, warmup: { type: 'string', default: '10' }, connections: { type: 'string', default: '32' }, store: { type: 'string' } } });
  const [duration, warmup, connections] = [Number(values.duration), Number(values.warmup), Number(values.connections)];
  const key = randomBytes(16).toString('hex');
  const { child, url } = await startServer(values.store, key);
  const pid = child.pid!;
  const requests = mixedRequests(key);
  const run = (seconds: number) => {
    const options: Options = { url, connections, duration: seconds, timeout: 30, requests };
    return autocannon(options);
  };
  try {
    const rssStart = rssBytes(pid);
    const warm = await run(warmup);
    const rssWarm = rssBytes(pid);
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssBytes(pid)), 1000);
    const result = await run(duration);
    clearInterval(sampler);
    const rssEnd = rssBytes(pid);
    const errors = result.errors + result.timeouts + result.non2xx + warm.errors + warm.timeouts + warm.non2xx;
    const bound = rssWarm + growthBound(rssWarm);
    const peak = Math.max(rssEnd, ...samples);
    console.log(`soak: ${duration} s at concurrency ${connections} on ${url}, ${requests.length} documented queries in turn (after ${warmup} s of warm-up)`);
    console.log(`  requests  ${result.requests.total} (warm-up ${warm.requests.total}), ${(result.requests.total / result.duration).toFixed(0)} req/s, ${mb(result.throughput.average)}/s`);
    console.log(`  latency   p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
    console.log(`  errors    ${errors} (connection ${result.errors + warm.errors}, timeouts ${result.timeouts + warm.timeouts}, non-2xx ${result.non2xx + warm.non2xx})`);
    console.log(`  RSS every 10 s: ${samples.filter((_, i) => i % 10 === 9).map(mb).join(', ')}`);
    console.log(`  RSS       at start ${mb(rssStart)}, after warm-up ${mb(rssWarm)}, peak ${mb(peak)}, at the end ${mb(rssEnd)} (bound ${mb(bound)})`);
    const failures = [...(errors > 0 ? [`${errors} errors`] : []), ...(peak > bound ? [`RSS grew to ${mb(peak)}, past ${mb(bound)}`] : [])];
    if (failures.length > 0) {
      console.error(`soak failed: ${failures.join('; ')}`);
      process.exitCode = 1;
    } else console.log('soak passed');
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
