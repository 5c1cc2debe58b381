// Large answers against their serialization floor, in one run: Q7 (every reservoir, NetE, a year) as JSON and as CSV,
// ours (the text as the server makes it) beside the floor (JSON.stringify / recordsToCsv of the same records already
// built in memory) and beside DuckDB's COPY of the same query over the same files, with each process's peak RSS; and
// Q6 (every station on one date) end to end against its floor.
//   npm run bench:floor -- [--scale 5000 --scale 44000] [--store 5000=DIR] [--runs 3] [--results bench/RESULTS.md]
// Stores are the scale curve's (bench/store.ts: made once, reused). Ours and the floor must be the same text
// (SHA-256), or the run fails.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../lib/open/store.js';
import { answerOurs, duckdbSql, heldInOrder, type QuerySpec, serialize, textOurs } from './queries.js';
import { scaleQueries } from './scale.js';
import { curveScales, ensureStore, repoRoot, scaleStoreDir } from './store.js';
import { timeRepeated } from './timing.js';

interface Child {
  ms?: number;
  cpuMs?: number;
  jsonCpuMs?: number;
  csvCpuMs?: number;
  jsonMs?: number;
  csvMs?: number;
  chars?: number;
  jsonChars?: number;
  csvChars?: number;
  records?: number;
  digest?: string;
  jsonDigest?: string;
  csvDigest?: string;
  bytes?: number;
  peakRssBytes: number;
}

/** One row of the table: an answer of one store, ours against its floor and DuckDB. */
export interface FloorRow {
  reservoirs: number;
  answer: string;
  records: number;
  chars: number;
  oursMs: number;
  floorMs: number;
  duckMs: number | null;
  oursCpuMs: number | null; // CPU time of the process over the same runs (a shared machine stretches wall time)
  floorCpuMs: number | null;
  duckCpuMs: number | null;
  oursRssBytes: number | null;
  floorRssBytes: number | null;
  duckRssBytes: number | null;
}

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    scale: { type: 'string', multiple: true, default: ['5000', '44000'] },
    store: { type: 'string', multiple: true, default: [] },
    runs: { type: 'string', default: '3' },
    results: { type: 'string' }, // a Markdown file whose block between FLOOR_BEGIN and FLOOR_END gets the table
  },
  strict: true,
});
const runs = Number(values.runs);
const dirs = new Map(values.store!.map((s) => s.split('=') as [string, string]));
const log = (line: string) => process.stderr.write(`${line}\n`);

const rows: FloorRow[] = [];
const loadBefore = loadavg();
for (const size of values.scale!) {
  const scale = curveScales.find((s) => String(s.reservoirs) === size);
  if (!scale) throw new Error(`no scale of ${size} water bodies in bench/store.ts (${curveScales.map((s) => s.reservoirs).join(', ')})`);
  const store = await ensureStore(dirs.get(size) ?? scaleStoreDir(scale), scale, log);
  const q7 = scaleQueries(store.manifest).find((q) => q.id === 'Q7')!;
  const job = { spec: q7.spec, jsonSql: duckdbSql(store.dir, q7.spec, 'json'), csvSql: duckdbSql(store.dir, q7.spec, 'csv') };
  const floor = await child('floor', store.dir, job);
  for (const format of ['json', 'csv'] as const) {
    const ours = await child(`ours-${format}`, store.dir, job);
    const duck = await child(`duck-${format}`, store.dir, job);
    const [floorMs, floorCpuMs, floorDigest, floorChars] =
      format === 'json'
        ? [floor.jsonMs!, floor.jsonCpuMs!, floor.jsonDigest!, floor.jsonChars!]
        : [floor.csvMs!, floor.csvCpuMs!, floor.csvDigest!, floor.csvChars!];
    if (ours.digest !== floorDigest || ours.chars !== floorChars)
      throw new Error(`${size}: Q7 ${format}: our text (${ours.chars} characters) differs from the floor's (${floorChars})`);
    rows.push({
      reservoirs: scale.reservoirs,
      answer: `Q7 ${format.toUpperCase()}: ${q7.title}`,
      records: floor.records!,
      chars: ours.chars!,
      oursMs: ours.ms!,
      floorMs,
      duckMs: duck.ms!,
      oursCpuMs: ours.cpuMs!,
      floorCpuMs,
      duckCpuMs: duck.cpuMs!,
      oursRssBytes: ours.peakRssBytes,
      floorRssBytes: floor.peakRssBytes,
      duckRssBytes: duck.peakRssBytes,
    });
    log(
      `${size} ${rows.at(-1)!.answer}: ours ${ours.ms!.toFixed(0)} ms (CPU ${ours.cpuMs!.toFixed(0)}), floor ${floorMs.toFixed(0)} ms (CPU ${floorCpuMs.toFixed(0)}), duckdb ${duck.ms!.toFixed(0)} ms (CPU ${duck.cpuMs!.toFixed(0)})`,
    );
  }
  rows.push(await q6(store.dir, scale.reservoirs));
}
const table = render(rows);
process.stdout.write(table);
if (values.results) await writeBlock(values.results, table);

/** Replaces the floor table in a results file (between its markers), or adds it at the end with them. */
async function writeBlock(file: string, text: string): Promise<void> {
  const [begin, end] = ['<!-- FLOOR_BEGIN: written by bench/floor.ts -->', '<!-- FLOOR_END -->'];
  const old = await readFile(file, 'utf8');
  const block = `${begin}\n${text}${end}`;
  const [at, past] = [old.indexOf(begin), old.indexOf(end)];
  await writeFile(file, at >= 0 && past > at ? old.slice(0, at) + block + old.slice(past + end.length) : `${old.trimEnd()}\n\n${block}\n`);
}

/** Q6, every station on the store's last 1 July, all their variables: end to end against the floor, in process. */
async function q6(dir: string, reservoirs: number): Promise<FloorRow> {
  const store = await openStore(dir);
  const year = store.manifest.datasets['nete-volume-calcs']!.partitions.at(-1)!.year;
  const spec: QuerySpec = { kind: 'station-date', variables: heldInOrder(store.manifest, store.manifest.stations.names), date: `${year}-07-01` };
  const built = await answerOurs(store, spec);
  const text = serialize('json', built);
  if ((await textOurs(store, spec, 'json')) !== text) throw new Error('Q6: the text made from the columns differs from JSON.stringify of the records');
  const repeat = { minRuns: 20, maxRuns: 2000, budgetMs: 1500 };
  const endToEnd = await timeRepeated(() => textOurs(store, spec, 'json'), repeat);
  const floor = await timeRepeated(() => serialize('json', built), repeat);
  await store.close();
  return {
    reservoirs,
    answer: `Q6 JSON: every station on ${spec.date}, ${spec.variables.length} variables`,
    records: built.records.length,
    chars: text.length,
    oursMs: endToEnd.medianMs,
    floorMs: floor.medianMs,
    duckMs: null,
    oursCpuMs: null,
    floorCpuMs: null,
    duckCpuMs: null,
    oursRssBytes: null,
    floorRssBytes: null,
    duckRssBytes: null,
  };
}

function render(table: readonly FloorRow[]): string {
  const mb = (b: number | null) => (b === null ? '—' : `${(b / 1e6).toFixed(0)} MB`);
  const ms = (v: number) => (v >= 100 ? `${v.toFixed(0)} ms` : v >= 10 ? `${v.toFixed(1)} ms` : `${v.toFixed(2)} ms`);
  const lines = [
    `Load average (1/5/15 min) at the start: ${loadBefore.map((l) => l.toFixed(2)).join(' / ')}; at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')}. Median of ${runs} warm runs per process (Q6: of repeated runs in one process).`,
    '',
    '| store | answer | records | text | ours | floor | ours/floor | DuckDB COPY | DuckDB/ours | CPU ours / floor / DuckDB | CPU ours/floor | peak RSS ours / floor / DuckDB |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|',
    ...table.map((r) =>
      [
        '',
        r.reservoirs.toLocaleString('en-US'),
        r.answer,
        r.records.toLocaleString('en-US'),
        `${(r.chars / 2 ** 20).toFixed(1)} MiB`,
        ms(r.oursMs),
        ms(r.floorMs),
        `**${(r.oursMs / r.floorMs).toFixed(2)}×**`,
        r.duckMs === null ? '—' : ms(r.duckMs),
        r.duckMs === null ? '—' : `**${(r.duckMs / r.oursMs).toFixed(2)}×**`,
        r.oursCpuMs === null ? '—' : `${ms(r.oursCpuMs)} / ${ms(r.floorCpuMs!)} / ${ms(r.duckCpuMs!)}`,
        r.oursCpuMs === null ? '—' : `${(r.oursCpuMs / r.floorCpuMs!).toFixed(2)}×`,
        r.oursRssBytes === null ? '—' : `${mb(r.oursRssBytes)} / ${mb(r.floorRssBytes)} / ${mb(r.duckRssBytes)}`,
        '',
      ]
        .join(' | ')
        .trim(),
    ),
  ];
  return `${lines.join('\n')}\n`;
}

function child(mode: string, dir: string, job: object): Promise<Child> {
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', 'floor-child.ts'), mode, dir, String(runs), JSON.stringify(job)], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4000)));
    proc.on('exit', (code) =>
      code === 0 ? done(JSON.parse(out.trim().split('\n').pop()!) as Child) : fail(new Error(`${mode} exited with ${code}: ${err.trim().slice(-2000)}`)),
    );
  });
}
