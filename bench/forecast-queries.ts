// The forecast benchmark's queries, ours and DuckDB's and ClickHouse's (chdb) over the statistics file the store's manifest names for the
// latest issue (a month's file in stores written before a file set per issue; the files of older snapshots sit beside
// it until a vacuum): the latest issue of one reservoir, and the 28-day totals of every reservoir; and the archive
// query, one reservoir's 7-day forecast from every issue held (the peers read every issue's statistics file: DuckDB
// the manifest's list, ClickHouse the store's Iceberg table `reservoir_forecasts`). Ours is the lead path, which also
// reads the estimates of those days (a store made for the forecasts holds a few: little to read).
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Manifest } from '../lib/store/manifest.js';

export const NAME = 'LAKE MEAD';

export async function forecastQueries(dir: string) {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const month = manifest.forecasts!.at(-1)!;
  const file = join(dir, month.stats.path).replaceAll("'", "''");
  // ClickHouse (chdb) reads files under its working directory alone: the file from the store's parent folder
  const chFile = join(basename(dir), month.stats.path).replaceAll('\\', '\\\\').replaceAll("'", "\\'");
  const latest = month.issues.at(-1)!.issued;
  const everyFile = manifest.forecasts!.map((m) => `'${join(dir, m.stats.path).replaceAll("'", "''")}'`).join(', ');
  const table = `${basename(dir)}/tables/reservoir_forecasts`.replaceAll('\\', '\\\\').replaceAll("'", "\\'");
  const archiveWhere = `RES_NAME = '${NAME}' and lead_days = 7 and statistic in ('mean', 'p10', 'p50', 'p90')`;
  return {
    manifest,
    queries: {
      latest: {
        ours: { method: 'forecastDaily', options: { names: [NAME], variables: ['E_volume'] } },
        sql: `select RES_NAME, issued, valid_date, lead_days, statistic, E_volume from read_parquet('${file}') where RES_NAME = '${NAME}' and issued = '${latest}' and statistic in ('mean', 'p10', 'p50', 'p90') order by lead_days, statistic`,
        clickhouse: `select RES_NAME, issued, valid_date, lead_days, statistic, E_volume from file('${chFile}', Parquet) where RES_NAME = '${NAME}' and issued = toDate32('${latest}') and statistic in ('mean', 'p10', 'p50', 'p90') order by lead_days, statistic`,
      },
      totals: {
        ours: { method: 'forecastTotal', options: { names: ['ALL'], variables: ['E_volume'], statistics: ['p50'] } },
        sql: `select RES_NAME, E_volume_total from read_parquet('${file}') where issued = '${latest}' and lead_days = 28 and statistic = 'p50' order by RES_NAME`,
        clickhouse: `select RES_NAME, E_volume_total from file('${chFile}', Parquet) where issued = toDate32('${latest}') and lead_days = 28 and statistic = 'p50' order by RES_NAME`,
      },
      archive: {
        ours: { method: 'forecastLead', options: { names: [NAME], variables: ['E_volume'], lead: 7 } },
        sql: `select RES_NAME, issued, valid_date, lead_days, statistic, E_volume from read_parquet([${everyFile}]) where ${archiveWhere} order by issued, statistic`,
        clickhouse: `select RES_NAME, issued, valid_date, lead_days, statistic, E_volume from icebergLocal('${table}') where ${archiveWhere} order by issued, statistic`,
      },
    },
  } as const;
}

export type ForecastQueryName = 'latest' | 'totals' | 'archive';

type Row = Record<string, unknown>;
const STATISTICS = ['mean', 'p10', 'p50', 'p90'];

/**
 * Where a peer's rows differ from our records (undefined: they say the same). Ours are wide (a key a statistic), the
 * peers' long (a row a statistic): each is made a map of (issue, lead, statistic) or name to the value, then compared.
 */
export function answerDifference(name: ForecastQueryName, ours: readonly Row[], peer: readonly Row[]): string | undefined {
  const mine = new Map<string, unknown>();
  const theirs = new Map<string, unknown>();
  if (name === 'totals') {
    for (const r of ours) mine.set(String(r.RES_NAME), r['E_volume (m3) p50']);
    for (const r of peer) theirs.set(String(r.RES_NAME), r.E_volume_total);
  } else {
    for (const r of ours) for (const s of STATISTICS) mine.set(`${r.RES_NAME}|${r.issued}|${r.lead_days}|${s}`, r[`E_volume (m3) ${s}`]);
    for (const r of peer) theirs.set(`${r.RES_NAME}|${r.issued}|${r.lead_days}|${r.statistic}`, r.E_volume);
  }
  if (mine.size !== theirs.size) return `${mine.size} values against ${theirs.size}`;
  for (const [key, value] of mine) {
    const other = theirs.get(key);
    // the stored values are rounded to 4 decimals: ours (rounded again) equal them to within a double's rounding
    if (typeof value !== 'number' || typeof other !== 'number' || Math.abs(value - other) > 1e-9 * Math.max(1, Math.abs(value)))
      return `${key}: ${value} against ${other}`;
  }
  return undefined;
}
