// What a fresh process pays before and around a cold Q1 and Q3, against the number of water bodies (issue 44):
// `npx tsx bench/open-cost.ts --runs 5 STORE...`. Each run is its own process (bench/open-cost-child.ts): node's
// start-up, the library's import, openStore (and the bytes it reads), then the answer; with --profile, one more run
// of each under the CPU profiler, summed by function and file (bench/profile.ts).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { datasetNames, reservoirDatasets } from '../lib/catalogue.js';
import { readCurrentManifest } from '../lib/store/history.js';
import type { Manifest } from '../lib/store/manifest.js';
import { clickhouseSql } from './clickhouse.js';
import { type CpuProfile, summarizeProfile } from './profile.js';
import { duckdbSql, everyReservoirForAYear, lastYearOf, type QuerySpec } from './queries.js';
import { child as scaleChild } from './scale.js';
import { median } from './timing.js';

interface Split {
  startMs: number;
  importMs: number;
  openMs: number;
  answerMs: number;
  cpuMs: number;
  openBytes: number;
  openReads: number;
  answerBytes: number;
  answerReads: number;
  length: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '5' },
    profile: { type: 'boolean' },
    peers: { type: 'boolean' },
    queries: { type: 'string', default: 'open,Q1,Q3' },
  },
});
const runs = Number(values.runs);
console.log(
  `load average at the start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')}`,
);
console.log('| store | water bodies | query | node start | import | open | answer | open reads (bytes) | answer reads (bytes) |');
console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|');
for (const dir of positionals) {
  const manifest = (await readCurrentManifest(dir))!;
  const specs: Record<string, QuerySpec | undefined> = { open: undefined, ...oneTableQueries(manifest) };
  for (const id of values.queries.split(',')) {
    const spec = specs[id] && JSON.stringify(specs[id]);
    const format = id === 'Q4' ? 'csv' : 'json'; // as the one table asks it
    const splits: Split[] = [];
    for (let i = 0; i < runs; i++) splits.push(await child(dir, spec, format));
    const m = (k: keyof Split) => median(splits.map((s) => s[k]));
    const ms = (k: keyof Split) => `${m(k).toFixed(1)} ms`;
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    console.log(
      `| ${dir.split('/').pop()} | ${manifest.reservoirs.names.length} | ${id} | ${ms('startMs')} | ${ms('importMs')} | ${ms('openMs')} | ${id === 'open' ? '—' : ms('answerMs')} | ${m('openReads')} (${kb(m('openBytes'))}) | ${m('answerReads')} (${kb(m('answerBytes'))}) |`,
    );
    if (values.peers && spec) {
      const peers = { duckdb: duckdbSql(dir, specs[id]!, format), clickhouse: clickhouseSql(dir, specs[id]!) };
      const ours = m('openMs') + m('answerMs');
      const line = [`ours ${ours.toFixed(0)} ms (CPU ${m('cpuMs').toFixed(0)})`];
      for (const [engine, sql] of Object.entries(peers)) {
        const times: { ms: number; cpuMs: number }[] = [];
        for (let i = 0; i < runs; i++) times.push(await scaleChild<{ ms: number; cpuMs: number }>([engine, dir, sql, format]));
        const peer = median(times.map((t) => t.ms));
        const peerCpu = median(times.map((t) => t.cpuMs));
        line.push(`${engine} ${peer.toFixed(0)} ms (CPU ${peerCpu.toFixed(0)}): ${(peer / ours).toFixed(2)}× (CPU ${(peerCpu / m('cpuMs')).toFixed(2)}×)`);
      }
      console.log(`    cold, ${id}: ${line.join('; ')}`);
    }
    if (values.profile && spec) {
      const tmp = await mkdtemp(join(tmpdir(), 'evap-open-cost-'));
      const file = join(tmp, 'p.cpuprofile');
      await child(dir, spec, format, file);
      for (const line of summarizeProfile(JSON.parse(await readFile(file, 'utf8')) as CpuProfile, 8)) console.log(`    ${line}`);
      await rm(tmp, { recursive: true, force: true });
    }
  }
}

// Q1, Q3, Q4 and Q7 of the one table (bench/queries.ts) in the store's last year, made here: a model store has no stations to
// pick Q5's from
function oneTableQueries(manifest: Manifest): Record<'Q1' | 'Q3' | 'Q4' | 'Q7', QuerySpec> {
  const year = lastYearOf(manifest);
  const names = manifest.reservoirs.names;
  const one = names.includes('LAKE MEAD') ? 'LAKE MEAD' : names[0]!;
  const nete = manifest.datasets['nete-volume-calcs']!.partitions;
  const whole = { start: nete[0]!.start, end: nete.at(-1)!.end };
  const variables = (['rtma', 'nete-volume-calcs'] as const).flatMap((d) => Object.keys(reservoirDatasets[d].variables));
  return {
    Q1: {
      kind: 'reservoir-range',
      names: [one],
      datasets: ['nete-volume-calcs'],
      variables: ['NetE', 'E_volume'],
      start: `${year}-01-01`,
      end: `${year}-12-31`,
    },
    Q3: { kind: 'reservoir-date', datasets: ['rtma', 'nete-volume-calcs'], variables, date: `${year}-07-01` },
    Q7: everyReservoirForAYear(year),
    Q4: {
      kind: 'reservoir-range',
      names: [one],
      datasets: [...datasetNames],
      variables: datasetNames.flatMap((d) => Object.keys(reservoirDatasets[d].variables)),
      start: whole.start,
      end: whole.end,
    },
  };
}

// one run in a process of its own (bench/open-cost-child.ts), under the CPU profiler when given a file for it
async function child(dir: string, spec: string | undefined, format: string, profile?: string): Promise<Split> {
  if (profile) process.env.EVAP_BENCH_PROFILE = profile;
  try {
    return await scaleChild<Split>([dir, ...(spec ? [spec, format] : [])], 'open-cost-child.ts');
  } finally {
    delete process.env.EVAP_BENCH_PROFILE;
  }
}
