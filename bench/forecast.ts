// The forecasts, ours against DuckDB and ClickHouse (chdb) over the same files: the latest issue of one reservoir (28
// leads, 4 statistics) and the 28-day totals of every reservoir (the median), warm (repeated in one process) and cold (a
// fresh process per run), and the store's bytes per issue; each peer's answer checked against ours, value for value.
// DuckDB and ClickHouse read the latest issue's statistics file, the one the manifest names (the files of older
// snapshots sit beside it until a vacuum): the same statistics, not our totals table.
//   npm run bench:forecast -- [--reservoirs 247] [--issues 31] [--runs 5] [--dir DIR] [--queries latest,totals,archive]
// The archive query (one reservoir's 7-day forecast from every issue held) is what grows with an archive: run it over a
// store of N issues made by bench/forecast-write.ts (--dir that store).
// At thousands of reservoirs the estimates are made for December alone (forecasts need no year of them) and no
// members are kept (44,000 reservoirs' members would not fit the Parquet writer's memory): --issues 1
// --reservoirs 44000 measures one issue at the planned CONUS scale.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateStore } from '../lib/synthetic/generate.js';
import { libraryModule } from './built.js';
import { clickhouseAnswer } from './clickhouse.js';
import { DuckEngine } from './duckdb.js';
import { answerDifference, type ForecastQueryName, forecastQueries } from './forecast-queries.js';
import { median, timeRepeated } from './timing.js';

const { values } = parseArgs({
  options: {
    reservoirs: { type: 'string', default: '247' },
    issues: { type: 'string', default: '31' },
    runs: { type: 'string', default: '5' },
    dir: { type: 'string' },
    queries: { type: 'string', default: 'latest,totals,archive' },
  },
});
const reservoirs = Number(values.reservoirs);
const issueCount = Number(values.issues);
const runs = Number(values.runs);
const large = reservoirs > 1000;
const dir = resolve(values.dir ?? join(tmpdir(), `evap-bench-forecast-${reservoirs}-${issueCount}`));

if (!existsSync(join(dir, 'manifest.json'))) {
  const began = performance.now();
  const firstIssue = `2021-12-${String(32 - issueCount).padStart(2, '0')}`;
  await generateStore(dir, {
    reservoirs,
    stations: 0,
    start: large ? '2021-12-01' : '2021-01-01',
    end: '2021-12-31',
    seed: 7,
    forecasts: { firstIssue, lastIssue: '2021-12-31', members: 16, keepMembers: large ? 0 : 7 },
  });
  console.log(`generated ${reservoirs} reservoirs with ${issueCount} issues of forecasts into ${dir} in ${((performance.now() - began) / 1000).toFixed(1)} s`);
}
const { manifest, queries } = await forecastQueries(dir);
const issues = manifest.forecasts!.flatMap((m) => m.issues);
const statsBytes = manifest.forecasts!.reduce((sum, m) => sum + m.stats.bytes, 0);
const memberBytes = manifest.forecasts!.reduce((sum, m) => sum + (m.members?.bytes ?? 0), 0);
const totalsBytes = manifest.forecasts!.reduce((sum, m) => sum + (m.totals?.bytes ?? 0), 0);
const indexBytes = manifest.forecasts!.reduce(
  (sum, m) => sum + (m.stats.index?.bytes ?? 0) + (m.members?.index?.bytes ?? 0) + (m.totals?.index?.bytes ?? 0),
  0,
);
// the names are in a file of their own (store format 3 on), which the manifest counts
const reservoirCount = manifest.reservoirs.namesFile?.rows ?? manifest.reservoirs.names.length;
const withMembers = issues.filter((i) => i.members > 0).length;
type QueryName = ForecastQueryName;

// the warm cells run the build when it is current, as the cold ones and `import('evap')` do (bench/built.ts)
const { openStore } = (await import(libraryModule('open/store.js'))) as typeof import('../lib/open/store.js');

async function warm(name: QueryName): Promise<{ ours: number; duck: number; ch: number; rows: [number, number, number] }> {
  const store = await openStore(dir);
  const duck = await DuckEngine.open();
  const q = queries[name];
  const call = () => (store as unknown as Record<string, (o: object) => Promise<unknown[]>>)[q.ours.method]!.call(store, q.ours.options);
  const ch = async () => clickhouseAnswer(dir, q.clickhouse);
  const answers = { ours: (await call()) as Record<string, unknown>[], duck: await duck.records(q.sql), ch: await ch() };
  for (const [peer, rows] of [
    ['DuckDB', answers.duck],
    ['ClickHouse', answers.ch],
  ] as const) {
    const difference = answerDifference(name, answers.ours, rows);
    if (difference) throw new Error(`${name}: ${peer}'s answer differs from ours: ${difference}`);
  }
  const rows: [number, number, number] = [answers.ours.length, answers.duck.length, answers.ch.length];
  const time = async (f: () => Promise<unknown>) => (await timeRepeated(f, { minRuns: runs * 4, maxRuns: runs * 4, budgetMs: 0 })).medianMs;
  const result = { ours: await time(call), duck: await time(() => duck.records(q.sql)), ch: await time(ch), rows };
  duck.close();
  await store.close();
  return result;
}

// a fresh process per run: from before opening (the store, or a DuckDB instance) to the answer
function cold(name: QueryName, engine: 'ours' | 'duckdb' | 'clickhouse'): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'forecast-child.ts'), engine, dir, name], { encoding: 'utf8' });
    times.push(JSON.parse(out.trim().split('\n').at(-1)!).firstMs);
  }
  return median(times);
}

{
  const lines = [
    `Forecasts: ${reservoirCount} reservoirs, ${issues.length} issues (members kept for ${withMembers}); statistics ${(statsBytes / issues.length / 1024).toFixed(0)} KiB per issue (${(statsBytes / issues.length / reservoirCount / 1024).toFixed(1)} KiB per reservoir), members ${(memberBytes / Math.max(1, withMembers) / 1024).toFixed(0)} KiB per issue that keeps them; totals tables ${(totalsBytes / issues.length / 1024).toFixed(0)} KiB per issue; the files' indexes ${(indexBytes / issues.length / 1024).toFixed(0)} KiB per issue; load average ${loadavg()[0]!.toFixed(1)} at the start`,
    '',
    '| query | rows ours / DuckDB / ClickHouse | warm ours | warm DuckDB | warm ClickHouse | DuckDB/ours | ClickHouse/ours | cold ours | cold DuckDB | cold ClickHouse | DuckDB/ours | ClickHouse/ours |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const ratio = (peer: number, ours: number) => `**${(peer / ours).toFixed(1)}×**`;
  for (const name of values.queries.split(',') as QueryName[]) {
    if (!(name in queries)) throw new Error(`--queries: ${name} is not one of ${Object.keys(queries).join(', ')}`);
    const w = await warm(name);
    const c = { ours: cold(name, 'ours'), duck: cold(name, 'duckdb'), ch: cold(name, 'clickhouse') };
    lines.push(
      `| ${name} | ${w.rows.join(' / ')} | ${w.ours.toFixed(2)} ms | ${w.duck.toFixed(2)} ms | ${w.ch.toFixed(2)} ms | ${ratio(w.duck, w.ours)} | ${ratio(w.ch, w.ours)} | ${c.ours.toFixed(0)} ms | ${c.duck.toFixed(0)} ms | ${c.ch.toFixed(0)} ms | ${ratio(c.duck, c.ours)} | ${ratio(c.ch, c.ours)} |`,
    );
  }
  console.log(lines.join('\n'));
}
