// One measurement of bench/floor.ts in a fresh process (so its peak RSS is its own):
//   node --import tsx bench/floor-child.ts <mode> <store> <runs> <job JSON>
//   ours-json | ours-csv   the answer's text as the server makes it (RecordStream.json / csv), chunks counted, not kept
//   floor                  the records built first (not timed), then only JSON.stringify / recordsToCsv of them, timed
//   duck-json | duck-csv   DuckDB's COPY of the same query to a file (JSON array / CSV)
// Every mode runs once untimed (caches, JIT), then `runs` timed runs; prints one JSON line: median ms per output
// (wall and CPU time: the machine may be shared),
// characters, SHA-256 of the text (ours and floor, from the untimed run) and the process's peak RSS.
import { createHash } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QuerySpec } from './queries.js';

interface FloorJob {
  spec: QuerySpec;
  jsonSql: string;
  csvSql: string;
}

/** Records held at once while measuring the floor: enough for JSON.stringify to run at speed, bounded in memory. */
const FLOOR_RECORDS = 500_000;

const [mode, dir, runsText, jobText] = process.argv.slice(2);
const runs = Number(runsText);
const job = JSON.parse(jobText!) as FloorJob;
const { openStore } = await import('../lib/open/store.js');
const { streamOurs } = await import('./queries.js');
const { recordsToCsv } = await import('../lib/format/csv.js');
const { DuckEngine } = await import('./duckdb.js');
const { median } = await import('./timing.js');

const result: Record<string, unknown> = { mode };
if (mode === 'ours-json' || mode === 'ours-csv') {
  const store = await openStore(dir);
  const chunks = () => (mode === 'ours-csv' ? streamOurs(store, job.spec).csv() : streamOurs(store, job.spec).json());
  const hash = createHash('sha256');
  let chars = 0;
  for await (const chunk of chunks()) {
    hash.update(chunk);
    chars += chunk.length;
  }
  const times: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < runs; r++) {
    const [began, cpuBefore] = [performance.now(), cpuMs()];
    for await (const chunk of chunks()) if (chunk.length < 0) throw new Error('unreachable'); // read, not kept
    times.push(performance.now() - began);
    cpu.push(cpuMs() - cpuBefore);
  }
  Object.assign(result, { ms: median(times), cpuMs: median(cpu), chars, digest: hash.digest('hex') });
  await store.close();
} else if (mode === 'floor') {
  const store = await openStore(dir);
  const json = createHash('sha256');
  const csv = createHash('sha256');
  const totals: { json: number; csv: number; jsonCpu: number; csvCpu: number }[] = [];
  let [jsonChars, csvChars, records] = [0, 0, 0];
  for (let r = 0; r <= runs; r++) {
    const stream = streamOurs(store, job.spec);
    const total = { json: 0, csv: 0, jsonCpu: 0, csvCpu: 0 };
    let held: unknown[][] = [];
    let count = 0;
    let first = true;
    const serialize = () => {
      for (const batch of held) {
        if (batch.length === 0) continue;
        let [began, cpuBefore] = [performance.now(), cpuMs()];
        const jsonText = JSON.stringify(batch);
        total.json += performance.now() - began;
        total.jsonCpu += cpuMs() - cpuBefore;
        [began, cpuBefore] = [performance.now(), cpuMs()];
        const csvText = recordsToCsv(batch as never, stream.columns, false);
        total.csv += performance.now() - began;
        total.csvCpu += cpuMs() - cpuBefore;
        if (r === 0) {
          // the digests of '[' + the batches' objects joined by ',' + ']' and of the header + rows, as ours stream them
          json.update(first ? jsonText.slice(0, -1) : `,${jsonText.slice(1, -1)}`);
          csv.update(first ? recordsToCsv([], stream.columns) + csvText : csvText);
          jsonChars += (first ? 0 : 1) + jsonText.length - (first ? 1 : 2);
          csvChars += (first ? recordsToCsv([], stream.columns).length : 0) + csvText.length;
          records += batch.length;
          first = false;
        }
      }
      held = [];
      count = 0;
    };
    for await (const batch of stream.batches) {
      held.push(batch);
      count += batch.length;
      if (count >= FLOOR_RECORDS) serialize();
    }
    serialize();
    if (r === 0) {
      json.update(first ? '[]' : ']');
      jsonChars += 1;
    }
    if (r > 0 || runs === 0) totals.push(total);
  }
  Object.assign(result, {
    jsonMs: median(totals.map((t) => t.json)),
    csvMs: median(totals.map((t) => t.csv)),
    jsonCpuMs: median(totals.map((t) => t.jsonCpu)),
    csvCpuMs: median(totals.map((t) => t.csvCpu)),
    jsonChars,
    csvChars,
    records,
    jsonDigest: json.digest('hex'),
    csvDigest: csv.digest('hex'),
  });
  await store.close();
} else {
  const duck = await DuckEngine.open();
  const path = join(tmpdir(), `evap-bench-floor-${process.pid}.${mode === 'duck-csv' ? 'csv' : 'json'}`);
  const copy = () => (mode === 'duck-csv' ? duck.copyCsv(job.csvSql, path) : duck.copyJson(job.jsonSql, path));
  await copy();
  const times: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < runs; r++) {
    const [began, cpuBefore] = [performance.now(), cpuMs()];
    await copy();
    times.push(performance.now() - began);
    cpu.push(cpuMs() - cpuBefore);
  }
  Object.assign(result, { ms: median(times), cpuMs: median(cpu), bytes: (await stat(path)).size });
  await rm(path, { force: true });
  duck.close();
}
/** CPU time of the whole process (every thread: DuckDB's workers, zlib's, the garbage collector's) in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

result.peakRssBytes = process.resourceUsage().maxRSS * 1024;
process.stdout.write(`${JSON.stringify(result)}\n`);
