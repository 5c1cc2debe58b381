// The totals table of one issue: the statistics of each reservoir's total over whole weeks of leads (1-7, 1-14, 1-21,
// 1-28), a row per window, statistic and reservoir, in that order, a row group per window and statistic. So the
// totals of every reservoir over one window read one row group of a few columns (at 44,000 reservoirs about a MB),
// where the statistics file holds them among the 224 rows of every lead and statistic of each reservoir (ten
// million rows an issue). The same values are in the statistics file's `<variable>_total` columns, which stay the
// source for other windows (and for stores written before this table).
import { StoreError } from '../errors.js';
import { type ForecastVariable, forecastVariables, MAX_LEAD } from '../forecast-variables.js';
import type { ForecastFile, ForecastMonth } from '../store/manifest.js';
import type { ColumnValues } from '../store/parquet.js';
import type { PartitionReader } from '../store/partitions.js';
import { readGroups, readIssue } from './files.js';
import { type EnsembleStatistic, ensembleStatistics } from './stats.js';

/** The windows of leads (1..N) whose totals the table holds. */
export const TOTAL_WINDOWS: readonly number[] = [7, 14, 21, 28];

const S = ensembleStatistics.length;

/** The totals over one window read back: the row of each reservoir, and each variable's and statistic's values by row. */
interface WindowTotals {
  row: ReadonlyMap<string, number>;
  values: ReadonlyMap<string, Float64Array>; // by `${variable} ${statistic}`
}

/**
 * The totals of every reservoir of the issue over leads 1..window, for the statistics and variables asked: one row
 * group per statistic, each chunk checked against the footer (or the index beside the file), each row's window and
 * statistic checked against what its place says.
 */
export function readTotals(
  reader: PartitionReader,
  file: ForecastFile,
  window: number,
  stats: readonly EnsembleStatistic[],
  variables: readonly ForecastVariable[],
): Promise<WindowTotals> {
  const key = ['totals', file.path, window, stats.join(','), variables.join(',')].join('\u0000');
  return reader.derive(key, async () => {
    const value = await decodeTotals(reader, file, window, stats, variables);
    return { value, bytes: value.row.size * (value.values.size + 1) * 8 };
  });
}

async function decodeTotals(
  reader: PartitionReader,
  file: ForecastFile,
  window: number,
  stats: readonly EnsembleStatistic[],
  variables: readonly ForecastVariable[],
): Promise<WindowTotals> {
  const w = TOTAL_WINDOWS.indexOf(window);
  const n = file.rows / (TOTAL_WINDOWS.length * S);
  if (w < 0 || !Number.isInteger(n) || file.footerSha256 === undefined) throw new StoreError(`${file.path} is not a forecast totals table`);
  const row = new Map<string, number>();
  const values = new Map<string, Float64Array>();
  const columns = ['RES_NAME', 'lead_days', 'statistic', ...variables.map((v) => `${v}_total`)];
  for (const statistic of new Set(stats)) {
    const first = (w * S + ensembleStatistics.indexOf(statistic)) * n;
    const out = variables.map(() => new Float64Array(n).fill(Number.NaN));
    variables.forEach((v, k) => {
      values.set(`${v} ${statistic}`, out[k]!);
    });
    const fill = row.size === 0;
    let at = 0; // rows arrive in order, a row group at a time
    await readGroups(reader, file, columns, [first, first + n], undefined, (decoded: readonly ColumnValues[], from: number, to: number) => {
      const [names, leads, statistics] = decoded as [ColumnValues, ColumnValues, ColumnValues];
      for (let i = from; i < to; i++, at++) {
        if (Number(leads[i]) !== window || statistics[i] !== statistic)
          throw new StoreError(`${file.path}: row ${first + at} is not the ${statistic} of leads 1-${window}`);
        if (fill) row.set(names[i] as string, at);
        else if (row.get(names[i] as string) !== at) throw new StoreError(`${file.path}: row ${first + at} is out of its reservoir's place`);
        for (let k = 0; k < out.length; k++) {
          const x = decoded[k + 3]![i];
          out[k]![at] = x === null || x === undefined ? Number.NaN : Number(x);
        }
      }
    });
    if (at !== n) throw new StoreError(`${file.path}: the ${statistic} of leads 1-${window} has ${at} rows, not ${n}`);
  }
  return { row, values };
}

/**
 * Checks an issue's totals table against its statistics file (`evap verify`): every reservoir, window, statistic and
 * variable must hold the value of the statistics file's `<variable>_total` at that lead, and the table every
 * reservoir of the issue. Throws an Error naming the first difference.
 */
export async function checkTotals(reader: PartitionReader, entry: ForecastMonth): Promise<void> {
  const file = entry.totals!;
  const issue = await readIssue(reader, entry, entry.issues[0]!, false, { daily: false, totals: true });
  const same = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));
  for (const window of TOTAL_WINDOWS) {
    const t = await decodeTotals(reader, file, window, ensembleStatistics, forecastVariables);
    if (t.row.size !== issue.byName.size) throw new Error(`store file ${file.path} holds ${t.row.size} reservoirs, ${entry.stats.path} ${issue.byName.size}`);
    for (const [name, f] of issue.byName) {
      const i = t.row.get(name);
      if (i === undefined) throw new Error(`store file ${file.path} lacks ${name}, which ${entry.stats.path} holds`);
      ensembleStatistics.forEach((statistic, s) => {
        for (const v of forecastVariables)
          if (!same(t.values.get(`${v} ${statistic}`)![i]!, f.totals[v][s * MAX_LEAD + window - 1]!))
            throw new Error(`store file ${file.path} does not agree with ${entry.stats.path}: the ${statistic} of ${name}'s ${v} over leads 1-${window}`);
      });
    }
  }
}
