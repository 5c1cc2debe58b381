// What the Iceberg tables cost a daily revision: a 65-day revision of every water body (nete-volume-calcs, through
// `evap ingest`, as the public service publishes each day) on the bench's 44,000-water-body store, the metadata it
// writes (bytes, files, time) against the data bytes it rewrites; and the cost of `evap tables` on the whole store.
// `npx tsx bench/tables.ts [--reservoirs 247|5000|44000] [--smoke]`. Last results (2 cores shared with other work,
// load average 13; Node 20), also in docs/store.md:
// | store | data files | evap tables (whole store) | revision: data rewritten | revision: metadata written | publish time | metadata / data |
// |---|---|---|---|---|---|---|
// | 44,000 water bodies, 2024-2025 | 638 | 78 files, 0.44 MiB, 0.48 s | 18 files, 20.63 MiB | 5 files, 23.1 KiB | 93 ms (ingest 138.3 s) | 0.11% |
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { reservoirDatasets, variableKey } from '../lib/catalogue.js';
import { readCurrentManifest } from '../lib/store/history.js';
import { openStorage } from '../lib/store/location.js';
import { manifestFiles } from '../lib/store/manifest.js';
import type { StoredFile } from '../lib/store/storage.js';
import { LEVEL_FILE, metadataFolder, TABLES_FOLDER } from '../lib/tables/catalog.js';
import { tableNames } from '../lib/tables/fields.js';
import { publishTables } from '../lib/tables/publish.js';
import { vacuumStore } from '../lib/writer/vacuum.js';
import { curveScales, ensureStore, repoRoot, runNode, scaleStoreDir, smokeScale } from './store.js';
import { median } from './timing.js';

const { values } = parseArgs({ args: process.argv.slice(2), options: { reservoirs: { type: 'string', default: '44000' }, smoke: { type: 'boolean' } } });
const scale = values.smoke ? smokeScale : curveScales.find((s) => s.reservoirs === Number(values.reservoirs));
if (!scale) throw new Error(`no bench scale of ${values.reservoirs} reservoirs; the scales are ${curveScales.map((s) => s.reservoirs).join(', ')}`);
const log = (line: string) => process.stderr.write(`${line}\n`);
const MiB = (n: number) => `${(n / 2 ** 20).toFixed(2)} MiB`;
const KiB = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

const store = await ensureStore(values.smoke ? join(scaleStoreDir(smokeScale), '..', 'evap-bench-store-tables-smoke') : scaleStoreDir(scale), scale, log);
const dir = store.dir;
const storage = openStorage(dir);
const tablesFiles = async () => new Map((await storage.list(TABLES_FOLDER)).map((f): [string, StoredFile] => [f.path, f]));
const pointers = async () => {
  const paths = [LEVEL_FILE, ...tableNames.map((t) => `${metadataFolder(t)}/version-hint.text`)];
  return new Map(await Promise.all(paths.map(async (p): Promise<[string, string | undefined]> => [p, (await storage.readText(p))?.text])));
};

// 1. the whole store published from nothing (`evap tables` on a store written before tables existed)
await rm(join(dir, TABLES_FOLDER), { recursive: true, force: true });
let began = performance.now();
const full = await publishTables(dir);
const fullMs = performance.now() - began;
log(`evap tables on ${store.files} data files: ${full.files} metadata files, ${MiB(full.bytes)}, ${(fullMs / 1000).toFixed(2)} s`);

// 2. a 65-day revision of every water body through evap ingest: the store commit, then its tables
const manifest = (await readCurrentManifest(dir))!;
const variables = Object.keys(reservoirDatasets['nete-volume-calcs'].variables) as 'NetE'[];
const end = Date.parse(`${manifest.datasets['nete-volume-calcs']!.partitions.at(-1)!.end}T00:00:00Z`);
const dates = Array.from({ length: 65 }, (_, i) => new Date(end - (64 - i) * 86_400_000).toISOString().slice(0, 10));
const csv = join(dir, '..', `evap-tables-revision-${manifest.reservoirs.names.length}.csv`);
const records = await writeRevision(csv); // in a function: its 2.9 million lines are garbage before anything is timed
const beforeFiles = await tablesFiles();
const beforePointers = await pointers();
const dataBefore = new Set(manifestFiles(manifest).map((f) => f.path));
began = performance.now();
await runNode(['--import', 'tsx', join(repoRoot, 'cli', 'evap.ts'), 'ingest', csv, '--store', dir]);
const ingestMs = performance.now() - began;
await rm(csv);
log(`${records} records ingested`);
const after = (await readCurrentManifest(dir))!;
const rewritten = manifestFiles(after).filter((f) => !dataBefore.has(f.path));
const dataBytes = rewritten.reduce((n, f) => n + f.bytes, 0);
const written = [...(await tablesFiles()).values()].filter((f) => beforeFiles.get(f.path)?.mtimeMs !== f.mtimeMs);
const metadataBytes = written.reduce((n, f) => n + f.bytes, 0);
log(
  `revision of 65 days x ${manifest.reservoirs.names.length}: ingest ${(ingestMs / 1000).toFixed(1)} s, ${rewritten.length} data files rewritten (${MiB(dataBytes)}); tables: ${written.length} metadata files, ${KiB(metadataBytes)}`,
);

// 3. the publishing of that revision alone, timed: tables put back one snapshot behind, published again (same bytes)
const times: number[] = [];
for (let i = 0; i < 5; i++) {
  for (const f of written) if (!beforeFiles.has(f.path)) await storage.remove(f.path);
  for (const [path, text] of beforePointers) if (text !== undefined) await storage.replace(path, text);
  began = performance.now();
  const again = await publishTables(dir);
  times.push(performance.now() - began);
  if (i === 0) log(`publishing again: ${again.tables.join(', ')}, ${again.snapshots} snapshots, ${again.files} files`);
  if (again.bytes + 0 !== metadataBytes - (written.find((f) => f.path === LEVEL_FILE)?.bytes ?? 0)) {
    log(`note: publishing again wrote ${again.bytes} bytes, the commit ${metadataBytes} (level.json apart)`);
  }
}
const publishMs = median(times);
log(`publishing that revision's tables alone: median ${publishMs.toFixed(0)} ms of 5 runs`);

process.stdout.write(
  `${[
    `| store | data files | evap tables (whole store) | revision: data rewritten | revision: metadata written | publish time | metadata / data |`,
    `|---|---|---|---|---|---|---|`,
    `| ${scale.reservoirs.toLocaleString('en-US')} water bodies, ${scale.start.slice(0, 4)}-${scale.end.slice(0, 4)} | ${store.files} | ${full.files} files, ${MiB(full.bytes)}, ${(fullMs / 1000).toFixed(2)} s | ${rewritten.length} files, ${MiB(dataBytes)} | ${written.length} files, ${KiB(metadataBytes)} | ${publishMs.toFixed(0)} ms (ingest ${(ingestMs / 1000).toFixed(1)} s) | ${((100 * metadataBytes) / dataBytes).toFixed(2)}% |`,
  ].join('\n')}\n`,
);
JSON.parse(await readFile(join(dir, LEVEL_FILE), 'utf8')); // the tables are level and readable at the end
await vacuumStore(dir, { minAgeMs: 0 }); // the store holds one snapshot's files again, as the bench's other runs expect

/** The revision as the service exports it: every water body's last 65 days, one CSV line each; returns the record count. */
async function writeRevision(file: string): Promise<number> {
  const lines = [
    [
      'RES_NAME',
      'start_date',
      'end_date',
      ...variables.map((v) => JSON.stringify(variableKey(v, reservoirDatasets['nete-volume-calcs'].variables[v].unit, 'metric'))),
    ].join(','),
  ];
  manifest.reservoirs.names.forEach((name, n) => {
    const quoted = /[",\n]/.test(name) ? JSON.stringify(name) : name;
    for (const [d, date] of dates.entries()) lines.push(`${quoted},${date},${date},${variables.map((_, v) => ((n + d + v + 3) % 89) / 10).join(',')}`);
  });
  await writeFile(file, `${lines.join('\n')}\n`);
  return lines.length - 1;
}
