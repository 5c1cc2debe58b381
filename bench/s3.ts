// Q1-Q7 from a store in a bucket (s3rver on loopback, in its own process) against the same store in a folder, cold
// (a fresh process: open and first answer) and warm (repeated in one process), every answer compared between the two.
// `npm run bench:s3 -- [--store DIR] [--runs 5] [--out bench/S3-RESULTS.md]`; default store: the demo store in data/.
// Loopback measures what the client adds (signing, HTTP, a request per read); a real bucket adds its latency to each
// of the cold reads counted here (AWS S3: tens of milliseconds to the first byte).
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type EvapStore, openStore } from '../lib/open/store.js';
import { copyStore } from '../lib/sync/copy.js';
import { defaultStoreDir } from '../lib/synthetic/demo.js';
import { answerOurs, defineQueries, duckdbSql, serialize } from './queries.js';
import { runColdOurs } from './s3-cold.js';
import { repoRoot } from './store.js';
import { median, now } from './timing.js';

const { values } = parseArgs({
  options: { store: { type: 'string' }, runs: { type: 'string', default: '5' }, out: { type: 'string', default: join(repoRoot, 'bench', 'S3-RESULTS.md') } },
});
const dir = values.store ?? defaultStoreDir();
const runs = Number(values.runs);
const log = (line: string) => process.stderr.write(`${line}\n`);

const server = await startServer();
const env = { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
Object.assign(process.env, env, { AWS_ENDPOINT_URL: server.info.proxy });
const location = `s3://${server.info.bucket}/store`;
try {
  const began = now();
  const copied = await copyStore(dir, location, { concurrency: 8 });
  const copyMs = now() - began;
  log(`copied ${copied.files} files, ${(copied.bytes / 2 ** 20).toFixed(1)} MiB into ${location} in ${(copyMs / 1000).toFixed(1)} s (read back and verified)`);
  process.env.AWS_ENDPOINT_URL = server.info.raw; // reads need no conditions: straight to s3rver

  const folder = await openStore(dir);
  const queries = defineQueries(folder.manifest);
  const rows: string[] = [];
  const ratios: { cold: number[]; warm: number[] } = { cold: [], warm: [] };
  for (const q of queries) {
    const local = await answerOurs(folder, q.spec);
    const expected = serialize(q.format, local);
    const bucketStore = await openStore(location); // opened, nothing read yet for this query: its reads are the cold ones
    const readsBefore = bucketStore.readStats().reads;
    const remote = serialize(q.format, await answerOurs(bucketStore, q.spec));
    const gets = bucketStore.readStats().reads - readsBefore;
    if (remote !== expected) throw new Error(`${q.id}: the bucket's answer differs from the folder's`);
    const warm = await warmMs(folder, bucketStore, q);
    await bucketStore.close();
    const job = JSON.stringify({ spec: q.spec, sql: duckdbSql(dir, q.spec, q.format), format: q.format });
    const cold = { folder: await runColdOurs(dir, job, runs), bucket: await runColdOurs(location, job, runs) };
    if (cold.folder.digest !== cold.bucket.digest) throw new Error(`${q.id}: cold answers differ`);
    ratios.cold.push(cold.bucket.firstMs / cold.folder.firstMs);
    ratios.warm.push(warm.bucket / warm.folder);
    rows.push(
      `| ${q.id} | ${local.records.length} | ${gets} | ${cold.folder.firstMs.toFixed(0)} | ${cold.bucket.firstMs.toFixed(0)} | ${(cold.bucket.firstMs / cold.folder.firstMs).toFixed(1)}x | ${warm.folder.toFixed(2)} | ${warm.bucket.toFixed(2)} | ${(warm.bucket / warm.folder).toFixed(2)}x |`,
    );
    log(rows[rows.length - 1]!);
  }
  await folder.close();
  const probe = await openStore(location);
  const getMs = await smallGetMs(probe);
  await probe.close();
  const table = [
    `# Q1-Q7 from a bucket on loopback against the folder`,
    ``,
    `Command: \`npm run bench:s3${values.store ? ' -- --store <folder>' : ''}\`; store: ${values.store ? 'the given folder' : 'the demo store in data/'} (${copied.files} files, ${(copied.bytes / 2 ** 20).toFixed(1)} MiB), copied into s3rver 3.7.1 in ${(copyMs / 1000).toFixed(1)} s with \`copyStore\` (every file read back and checked).`,
    `node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Cold: median of ${runs} fresh processes, open and first answer, timed inside the process after its imports.`,
    `Warm: medians of answers in one process with full caches, folder and bucket alternating. GETs: the ranged reads of the first answer after opening (on a real bucket, each is a round trip).`,
    `s3rver's own cost: a small ranged GET takes ${getMs.toFixed(1)} ms (median of 50 in a row; a read of a local file takes microseconds).`,
    ``,
    `| query | records | GETs | cold folder ms | cold bucket ms | cold ratio | warm folder ms | warm bucket ms | warm ratio |`,
    `|---|---|---|---|---|---|---|---|---|`,
    ...rows,
    ``,
    `Median ratio bucket/folder: cold ${median(ratios.cold).toFixed(1)}x, warm ${median(ratios.warm).toFixed(2)}x.`,
    ``,
  ].join('\n');
  await writeFile(values.out!, table);
  log(`\n${table}`);
} finally {
  server.child.kill('SIGTERM');
}

// alternating, so that neither side gets the other's JIT warm-up
async function warmMs(folder: EvapStore, bucket: EvapStore, q: ReturnType<typeof defineQueries>[number]): Promise<{ folder: number; bucket: number }> {
  const samples = { folder: [] as number[], bucket: [] as number[] };
  for (let i = 0, began = now(); i < 200 && (i < 10 || now() - began < 3000); i++) {
    for (const [side, store] of [
      ['folder', folder],
      ['bucket', bucket],
    ] as const) {
      const t = now();
      await answerOurs(store, q.spec);
      if (i > 0) samples[side].push(now() - t);
    }
  }
  return { folder: median(samples.folder), bucket: median(samples.bucket) };
}

/** The median time of a small ranged GET from the bench's s3rver: the floor of every cold read. */
async function smallGetMs(store: EvapStore): Promise<number> {
  const file = store.manifest.reservoirs.metadata!;
  const samples: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = now();
    await store.storage.read(file.path, 0, 1024);
    samples.push(now() - t);
  }
  return median(samples);
}

async function startServer(): Promise<{ child: ChildProcess; info: { raw: string; proxy: string; bucket: string } }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', 's3-server.ts')], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<{ raw: string; proxy: string; bucket: string }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
    });
    child.on('exit', (code) => reject(new Error(`the bench's s3rver exited with code ${code}`)));
  });
  return { child, info };
}
