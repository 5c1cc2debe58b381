// Aggregates and normals against DuckDB's GROUP BY on the same Parquet files, warm, in one run; and the size and time
// of a Parquet answer against the JSON one.
//   npx tsx bench/aggregates.ts [--store DIR]      (default: the demo store in data/)
// Last results: see docs/aggregates.md ("Speed").

import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type DatasetName, datasetNames, findReservoirVariable, reservoirDatasets, variableKey } from '../lib/catalogue.js';
import { tableToParquet } from '../lib/format/answer-table.js';
import { type EvapStore, openStore } from '../lib/open/store.js';
import type { WireRecord } from '../lib/types.js';
import { DuckEngine } from './duckdb.js';
import { ms } from './inprocess.js';
import { timeRepeated } from './timing.js';

const { values: flags } = parseArgs({ options: { store: { type: 'string' }, budget: { type: 'string', default: '3000' } } });
const repeat = { minRuns: 5, maxRuns: 200, budgetMs: Number(flags.budget) };
const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;
const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;

/** DuckDB SQL for monthly aggregates with the catalogue's statistics (sum, circular mean, mean), as the library answers. */
function monthlySql(root: string, names: readonly string[] | 'all', variables: readonly string[], years: [number, number]): string {
  const used = datasetNames.filter((d) => variables.some((v) => findReservoirVariable(v)!.dataset === d));
  const where = `${names === 'all' ? '' : `RES_NAME in (${names.map(lit).join(', ')}) and `}year between ${years[0]} and ${years[1]}`;
  const ctes = used.map(
    (d, i) =>
      `d${i} as (select RES_NAME, date, ${variables
        .filter((v) => findReservoirVariable(v)!.dataset === d)
        .map(ident)
        .join(', ')} from read_parquet(${lit(join(root, 'reservoirs', `dataset=${d}`, 'year=*', '*.parquet'))}, hive_partitioning = true) where ${where})`,
  );
  const from = used.map((_, i) => (i === 0 ? 'd0' : `full join d${i} using (RES_NAME, date)`)).join(' ');
  const value = (v: string) => {
    const { spec } = findReservoirVariable(v)!;
    const x = ident(v);
    const how = spec.aggregate ?? 'mean';
    const e =
      how === 'sum' ? `sum(${x})` : how === 'circular-mean' ? `(degrees(atan2(sum(sin(radians(${x}))), sum(cos(radians(${x}))))) + 360) % 360` : `avg(${x})`;
    return `r4(${e}) as ${ident(variableKey(v, spec.unit, 'metric'))}`;
  };
  return `with ${ctes.join(',\n')}\nselect RES_NAME, strftime(date_trunc('month', date), '%Y-%m-%d') as start_date, ${variables.map(value).join(', ')}\nfrom ${from}\ngroup by RES_NAME, date_trunc('month', date) order by RES_NAME, start_date`;
}

/** DuckDB SQL for monthly normals of sums: n, mean, min, max and quantile_cont (type 7) by calendar month. */
function normalsSql(root: string, name: string, variables: readonly string[]): string {
  const glob = join(root, 'reservoirs', 'dataset=nete-volume-calcs', 'year=*', '*.parquet');
  const sums = variables.map((v) => `sum(${ident(v)}) as ${ident(v)}`).join(', ');
  const stats = variables.flatMap((v) => {
    const key = variableKey(v, findReservoirVariable(v)!.spec.unit, 'metric');
    const x = ident(v);
    return [
      `count(${x}) as ${ident(`${key} n`)}`,
      `r4(avg(${x})) as ${ident(`${key} mean`)}`,
      `r4(min(${x})) as ${ident(`${key} min`)}`,
      `r4(max(${x})) as ${ident(`${key} max`)}`,
      ...[10, 25, 50, 75, 90].map((p) => `r4(quantile_cont(${x}, ${p / 100})) as ${ident(`${key} p${p}`)}`),
    ];
  });
  return `with m as (select year(date) as y, month(date) as month, ${sums} from read_parquet(${lit(glob)}, hive_partitioning = true) where RES_NAME = ${lit(name)} group by all)
select month, ${stats.join(', ')} from m group by month order by month`;
}

// the same records within the rounding of 4 decimals (sums of 46 years are added in another order)
function assertClose(id: string, ours: readonly WireRecord[], theirs: readonly WireRecord[], keys: readonly string[]): void {
  if (ours.length !== theirs.length) throw new Error(`${id}: ${ours.length} records, DuckDB ${theirs.length}`);
  ours.forEach((r, i) => {
    for (const k of keys) {
      const [a, b] = [r[k], theirs[i]![k]];
      if (a === null || b === null || typeof a === 'string' || typeof b === 'string') {
        if (String(a) !== String(b)) throw new Error(`${id} record ${i} ${k}: ${a} vs ${b}`);
        continue;
      }
      const diff = Math.abs(Number(a) - Number(b));
      if (Math.min(diff, k.startsWith('th ') ? 360 - diff : diff) > 1.01e-4 + 1e-9 * Math.abs(Number(b)))
        throw new Error(`${id} record ${i} ${k}: ${a} vs ${b}`);
    }
  });
}

interface Row {
  id: string;
  title: string;
  records: number;
  ours: number; // median ms
  duckdb: number;
  oursMin: number; // fastest run: steadier than the median on a busy machine
  duckdbMin: number;
}

async function compare(
  id: string,
  title: string,
  ours: () => Promise<WireRecord[]>,
  duck: DuckEngine,
  sql: string,
  keys: (r: WireRecord) => string[],
): Promise<Row> {
  const [a, b] = [await ours(), await duck.records(sql)];
  assertClose(
    id,
    a,
    b,
    keys(a[0]!).filter((k) => k in b[0]!),
  );
  const t1 = await timeRepeated(ours, repeat);
  const t2 = await timeRepeated(() => duck.records(sql), repeat);
  console.log(
    `${id} ${title}: ${a.length} records; ours ${ms(t1.medianMs)}, DuckDB ${ms(t2.medianMs)} (x${(t2.medianMs / t1.medianMs).toFixed(1)}; fastest runs ${ms(t1.minMs)} and ${ms(t2.minMs)}, x${(t2.minMs / t1.minMs).toFixed(1)})`,
  );
  return { id, title, records: a.length, ours: t1.medianMs, duckdb: t2.medianMs, oursMin: t1.minMs, duckdbMin: t2.minMs };
}

async function main(): Promise<void> {
  const store: EvapStore = await openStore(flags.store);
  const duck = await DuckEngine.open();
  const m = store.manifest;
  const one = m.reservoirs.names.includes('LAKE MEAD') ? 'LAKE MEAD' : m.reservoirs.names[0]!;
  const nete = m.datasets['nete-volume-calcs']!.partitions;
  const [start, end] = [
    nete.map((p) => p.start).sort()[0]!,
    nete
      .map((p) => p.end)
      .sort()
      .at(-1)!,
  ];
  const years: [number, number] = [Number(start.slice(0, 4)), Number(end.slice(0, 4))];
  const year = Math.min(2020, years[1]);
  const all = datasetNames.flatMap((d: DatasetName) => Object.keys(reservoirDatasets[d].variables));
  const netVars = ['NetE', 'E_volume', 'NetE_volume'];
  console.log(
    `store ${store.root}: ${m.reservoirs.names.length} reservoirs, ${start}..${end}; warm medians, each run at least ${repeat.minRuns} times within ${repeat.budgetMs} ms`,
  );
  const keys = (r: WireRecord) => Object.keys(r).filter((k) => k !== 'end_date' && k !== 'n_days');
  const rows = [
    await compare(
      'A1',
      `monthly aggregates of ${one}, all ${all.length} variables, ${start}..${end}`,
      () => store.reservoirAggregates({ names: [one], variables: all, start, end }),
      duck,
      monthlySql(store.root, [one], all, years),
      keys,
    ),
    await compare(
      'A2',
      `monthly totals of every reservoir (${m.reservoirs.names.length}), nete-volume-calcs, ${year}`,
      () =>
        store.reservoirAggregates({
          names: m.reservoirs.names,
          datasets: ['nete-volume-calcs'],
          variables: netVars,
          start: `${year}-01-01`,
          end: `${year}-12-31`,
        }),
      duck,
      monthlySql(store.root, 'all', netVars, [year, year]),
      keys,
    ),
    await compare(
      'A3',
      `monthly normals of ${one}, NetE and E_volume over ${start}..${end}`,
      () => store.reservoirNormals({ names: [one], datasets: ['nete-volume-calcs'], variables: ['NetE', 'E_volume'] }),
      duck,
      normalsSql(store.root, one, ['NetE', 'E_volume']),
      (r) => Object.keys(r).filter((k) => k.includes(' (')),
    ),
  ];
  // Parquet against JSON: the daily Q4 answer (one reservoir, every variable, the whole record) and A1's
  for (const [id, query] of [
    ['Q4', () => store.streamReservoirTimeseries({ names: [one], variables: all, start, end })],
    ['A1', () => store.streamReservoirAggregates({ names: [one], variables: all, start, end })],
  ] as const) {
    const json = async () => {
      let text = '';
      for await (const chunk of query().json()) text += chunk;
      return text;
    };
    const parquet = async () => {
      const stream = query();
      return tableToParquet(await stream.table());
    };
    const [text, bytes] = [await json(), await parquet()];
    const [tj, tp] = [await timeRepeated(json, repeat), await timeRepeated(parquet, repeat)];
    console.log(
      `${id} as Parquet: ${(bytes.byteLength / 1024).toFixed(0)} KiB in ${ms(tp.medianMs)}; as JSON: ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB in ${ms(tj.medianMs)} (size x${(Buffer.byteLength(text) / bytes.byteLength).toFixed(1)} smaller, time x${(tp.medianMs / tj.medianMs).toFixed(2)})`,
    );
  }
  console.log(`\n| query | records | ours (median / fastest) | DuckDB (median / fastest) | DuckDB / ours (median / fastest) |\n|---|---|---|---|---|`);
  for (const r of rows)
    console.log(
      `| ${r.id} ${r.title} | ${r.records} | ${ms(r.ours)} / ${ms(r.oursMin)} | ${ms(r.duckdb)} / ${ms(r.duckdbMin)} | ${(r.duckdb / r.ours).toFixed(1)} / ${(r.duckdbMin / r.oursMin).toFixed(1)} |`,
    );
  duck.close();
  await store.close();
}

await main();
