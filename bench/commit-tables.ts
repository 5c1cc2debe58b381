// What the Iceberg tables cost a daily commit, and how that grows with the snapshots kept: daily revisions (one day of
// nete-volume-calcs for every water body, through the library's ingest, as the service publishes each day) committed
// one after the other on a copy of a bench store, each timed whole (the store commit, then the tables' publication
// under the same lock), and its publication alone (the tables put back one snapshot behind and published again: the
// same files, the same bytes), so the commit without the publication is the difference.
//   npx tsx bench/commit-tables.ts [--reservoirs 247|5000|44000] [--commits 30] [--store DIR] [--scratch DIR]
// The store is the bench's own of that scale (bench/store.ts, made by `npm run bench`), copied into the scratch folder
// (default: the system's temporary folder) and never written itself. Nothing is vacuumed, so commit k is made with
// k + (the store's own) snapshots kept, each of them an Iceberg snapshot in the metadata file.
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { reservoirDatasets, variableKey } from '../lib/catalogue.js';
import { ingest } from '../lib/ingest/ingest.js';
import { textSource } from '../lib/ingest/text.js';
import { readCurrentManifest } from '../lib/store/history.js';
import { openStorage } from '../lib/store/location.js';
import type { StoredFile } from '../lib/store/storage.js';
import { LEVEL_FILE, metadataFolder, TABLES_FOLDER } from '../lib/tables/catalog.js';
import { datasetTable, tableNames } from '../lib/tables/fields.js';
import { publishTables } from '../lib/tables/publish.js';
import { curveScales, scaleStoreDir } from './store.js';
import { median } from './timing.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    reservoirs: { type: 'string', default: '247' },
    commits: { type: 'string', default: '30' },
    store: { type: 'string' },
    scratch: { type: 'string' },
  },
});
const scale = curveScales.find((s) => s.reservoirs === Number(values.reservoirs));
if (!scale) throw new Error(`no bench scale of ${values.reservoirs} reservoirs; the scales are ${curveScales.map((s) => s.reservoirs).join(', ')}`);
const source = values.store ?? scaleStoreDir(scale);
if (!existsSync(join(source, 'manifest.json'))) throw new Error(`no store at ${source}: make it with npm run bench -- --scales ${scale.reservoirs}`);
const commits = Number(values.commits);
const log = (line: string) => process.stderr.write(`${line}\n`);

const scratch = await mkdtemp(join(values.scratch ?? tmpdir(), 'evap-commit-tables-'));
const dir = join(scratch, 'store');
let began = performance.now();
await cp(source, dir, { recursive: true });
log(`copied ${source} into ${dir} in ${((performance.now() - began) / 1000).toFixed(1)} s`);
const storage = openStorage(dir);
await publishTables(dir); // level before the first commit (a copy's tables name the original's folder)

const table = datasetTable('nete-volume-calcs');
const manifest = (await readCurrentManifest(dir))!;
const names = manifest.reservoirs.names;
const day = manifest.datasets['nete-volume-calcs']!.partitions.at(-1)!.end; // the last day held, revised every commit
const variables = Object.keys(reservoirDatasets['nete-volume-calcs'].variables) as 'NetE'[];
const header = [
  'RES_NAME',
  'start_date',
  'end_date',
  ...variables.map((v) => JSON.stringify(variableKey(v, reservoirDatasets['nete-volume-calcs'].variables[v].unit, 'metric'))),
];
const revision = (k: number) =>
  `${[
    header.join(','),
    ...names.map(
      (name, n) => `${/[",\n]/.test(name) ? JSON.stringify(name) : name},${day},${day},${variables.map((_, v) => ((n + k + v + 3) % 89) / 10).join(',')}`,
    ),
  ].join('\n')}\n`;

const tablesFiles = async () => new Map((await storage.list(TABLES_FOLDER)).map((f): [string, StoredFile] => [f.path, f]));
const pointers = async () => {
  const paths = [LEVEL_FILE, ...tableNames.map((t) => `${metadataFolder(t)}/version-hint.text`)];
  return new Map(await Promise.all(paths.map(async (p): Promise<[string, string | undefined]> => [p, (await storage.readText(p))?.text])));
};
const metadataBytes = async () => {
  const hint = (await storage.readText(`${metadataFolder(table)}/version-hint.text`))!.text.trim();
  return (await storage.list(metadataFolder(table))).find((f) => f.path.endsWith(`/v${hint}.metadata.json`))!.bytes;
};

interface Commit {
  k: number;
  snapshots: number; // store snapshots kept when it was made (it included)
  totalMs: number; // the ingest: the store commit and the tables' publication
  publishMs: number; // the publication alone, median of 3
  metadataFiles: number;
  metadataBytes: number; // written by the publication
  tableMetadataBytes: number; // the nete-volume-calcs table's metadata file after it
}
const results: Commit[] = [];
for (let k = 1; k <= commits; k++) {
  const beforeFiles = await tablesFiles();
  const beforePointers = await pointers();
  const text = revision(k);
  began = performance.now();
  const summary = await ingest(dir, [textSource(`revision-${k}.csv`, text)]);
  const totalMs = performance.now() - began;
  if (summary.rejected > 0) throw new Error(`the revision was refused: ${JSON.stringify(summary.problems.slice(0, 3))}`);
  const written = [...(await tablesFiles()).values()].filter((f) => beforeFiles.get(f.path)?.mtimeMs !== f.mtimeMs);
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    for (const f of written) if (!beforeFiles.has(f.path)) await storage.remove(f.path);
    for (const [path, text] of beforePointers) if (text !== undefined) await storage.replace(path, text);
    began = performance.now();
    await publishTables(dir);
    times.push(performance.now() - began);
  }
  const after = (await readCurrentManifest(dir))!;
  const result: Commit = {
    k,
    snapshots: after.sequence,
    totalMs,
    publishMs: median(times),
    metadataFiles: written.length,
    metadataBytes: written.reduce((n, f) => n + f.bytes, 0),
    tableMetadataBytes: await metadataBytes(),
  };
  results.push(result);
  log(
    `commit ${k} (${result.snapshots} snapshots): ${totalMs.toFixed(0)} ms, publication ${result.publishMs.toFixed(0)} ms, ${result.metadataFiles} metadata files, ${(result.metadataBytes / 1024).toFixed(1)} KiB; ${table} metadata file ${(result.tableMetadataBytes / 1024).toFixed(1)} KiB`,
  );
}

// the first commits, then every tenth: how the publication grows with the snapshots kept; the medians are over all
// the commits, each commit's share of publication taken first
const shown = results.filter((r) => r.k <= 3 || r.k % 10 === 0 || r.k === commits);
const med = (pick: (r: Commit) => number) => median(results.map(pick));
process.stdout.write(
  `${[
    `Daily commit, ${names.length.toLocaleString('en-US')} water bodies (one day of nete-volume-calcs for every one, revised through ingest), median of ${results.length} commits: ${med((r) => r.totalMs).toFixed(0)} ms with the tables' publication, ${med((r) => r.totalMs - r.publishMs).toFixed(0)} ms without; the publication ${med((r) => r.publishMs).toFixed(0)} ms, ${(100 * med((r) => r.publishMs / r.totalMs)).toFixed(0)}% of a commit`,
    '',
    '| commit | snapshots kept | commit with publication | without | publication | metadata written | table metadata file |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...shown.map(
      (r) =>
        `| ${r.k} | ${r.snapshots} | ${r.totalMs.toFixed(0)} ms | ${(r.totalMs - r.publishMs).toFixed(0)} ms | ${r.publishMs.toFixed(0)} ms | ${r.metadataFiles} files, ${(r.metadataBytes / 1024).toFixed(1)} KiB | ${(r.tableMetadataBytes / 1024).toFixed(1)} KiB |`,
    ),
  ].join('\n')}\n`,
);
await rm(scratch, { recursive: true, force: true });
