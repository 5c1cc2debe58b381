// An issue's rows as they are made, a row group at a time: the statistics (with the totals' statistics) or the
// members of each reservoir in turn, and at the end the totals table (lib/forecast/totals.ts) from what was kept of
// each reservoir's totals. Each full row group leaves as an Arrow table for the stream writer, so an issue of any
// size is written in the memory of a row group (and of the totals table's few columns).
import { DateDay, Int32, makeVector, Table, type Vector } from 'apache-arrow';
import { forecastVariables, MAX_LEAD, memberName } from '../forecast-variables.js';
import { fieldIdsOf, forecastFields, forecastTotalsFields } from '../tables/fields.js';
import { floatVector, utf8Vector, withFieldIds } from '../writer/vectors.js';
import type { ReservoirForecast } from './issue.js';
import { ensembleStatistics } from './stats.js';
import { TOTAL_WINDOWS } from './totals.js';

const S = ensembleStatistics.length;
const VALUE_COLUMNS = forecastVariables.flatMap((v) => [v, `${v}_total`]);

/** The columns of a statistics or members file. */
export const ROW_COLUMNS = 5 + VALUE_COLUMNS.length;

/** Rows of one file of an issue, a row group at a time: `add` a reservoir's rows, full groups handed to `emit`. */
export class RowBatcher {
  private names: string[] = [];
  private leads: Int32Array;
  private statistic: string[] = [];
  private values: Float64Array[];
  private n = 0;

  constructor(
    private readonly issued: number,
    private readonly groupRows: number,
    private readonly members: boolean,
    private readonly emit: (table: Table) => Promise<void>,
  ) {
    this.leads = new Int32Array(groupRows);
    this.values = VALUE_COLUMNS.map(() => new Float64Array(groupRows));
  }

  /** A reservoir's rows: lead by lead, its statistics (or its `count` members) at each. */
  async add(name: string, f: ReservoirForecast, count: number): Promise<void> {
    // plain loops over arrays taken once: a closure a row was a tenth of writing an issue
    const daily = forecastVariables.map((v) => (this.members ? f.members![v] : f.stats[v]));
    const totals = this.members ? undefined : forecastVariables.map((v) => f.totals[v]); // a member's total is its own sum
    const labels = this.members ? Array.from({ length: count }, (_, k) => memberName(k)) : ensembleStatistics;
    const values = this.values;
    for (let lead = 1; lead <= MAX_LEAD; lead++)
      for (let k = 0; k < count; k++) {
        const at = k * MAX_LEAD + lead - 1;
        const i = this.n++;
        this.names.push(name);
        this.leads[i] = lead;
        this.statistic.push(labels[k]!);
        for (let c = 0; c < daily.length; c++) {
          values[2 * c]![i] = daily[c]![at]!;
          values[2 * c + 1]![i] = totals ? totals[c]![at]! : Number.NaN;
        }
        if (this.n === this.groupRows) await this.flush();
      }
  }

  /** The last, partial row group. */
  async end(): Promise<void> {
    if (this.n > 0) await this.flush();
  }

  /** The file's columns and no rows (an issue of no reservoirs). */
  empty(): Table {
    return this.table();
  }

  private async flush(): Promise<void> {
    const table = this.table();
    this.names = [];
    this.statistic = [];
    this.n = 0;
    await this.emit(table);
  }

  private table(): Table {
    const n = this.n;
    const issued = new Int32Array(n).fill(this.issued);
    const columns: Record<string, Vector> = {
      RES_NAME: utf8Vector(this.names),
      issued: makeVector({ type: new DateDay(), data: issued }),
      valid_date: makeVector({ type: new DateDay(), data: Int32Array.from(this.leads.subarray(0, n), (lead) => this.issued + lead) }),
      lead_days: makeVector({ type: new Int32(), data: this.leads.slice(0, n) }),
      statistic: utf8Vector(this.statistic),
    };
    VALUE_COLUMNS.forEach((name, c) => {
      columns[name] = floatVector(this.values[c]!.subarray(0, n));
    });
    const table = new Table(columns);
    return withFieldIds(table, fieldIdsOf(forecastFields(), table.schema.names as string[]));
  }
}

/** Each reservoir's totals over the table's windows, kept as they pass (`n` reservoirs, in order), then the totals table's row groups. */
export class TotalsKeeper {
  private readonly values: Float64Array[];
  private i = 0;
  any = false; // whether any reservoir has totals (one loaded without members has none: no table then)

  constructor(private readonly names: readonly string[]) {
    this.values = forecastVariables.map(() => new Float64Array(TOTAL_WINDOWS.length * S * names.length));
  }

  /** The next reservoir's totals; whether it has any. */
  keep(f: ReservoirForecast): boolean {
    const n = this.names.length;
    let has = false;
    TOTAL_WINDOWS.forEach((window, w) => {
      for (let s = 0; s < S; s++)
        forecastVariables.forEach((v, k) => {
          const x = f.totals[v][s * MAX_LEAD + window - 1]!;
          this.values[k]![(w * S + s) * n + this.i] = x;
          if (!Number.isNaN(x)) has = true;
        });
    });
    // every lead's totals, not just the windows': a reservoir "without totals" has none at all
    if (!has) for (const v of forecastVariables) if (!f.totals[v].every(Number.isNaN)) has = true;
    this.i++;
    this.any ||= has;
    return has;
  }

  /** The table's row groups: a window and statistic each, every reservoir's row in it. */
  async *groups(issued: number): AsyncGenerator<Table> {
    const n = this.names.length;
    const resNames = utf8Vector(this.names);
    const issuedDays = makeVector({ type: new DateDay(), data: new Int32Array(n).fill(issued) });
    for (let w = 0; w < TOTAL_WINDOWS.length; w++)
      for (let s = 0; s < S; s++) {
        const columns: Record<string, Vector> = {
          RES_NAME: resNames,
          issued: issuedDays,
          lead_days: makeVector({ type: new Int32(), data: new Int32Array(n).fill(TOTAL_WINDOWS[w]!) }),
          statistic: utf8Vector(new Array<string>(n).fill(ensembleStatistics[s]!)),
        };
        forecastVariables.forEach((v, k) => {
          columns[`${v}_total`] = floatVector(this.values[k]!.subarray((w * S + s) * n, (w * S + s + 1) * n));
        });
        const table = new Table(columns);
        yield withFieldIds(table, fieldIdsOf(forecastTotalsFields(), table.schema.names as string[]));
      }
  }
}

/** The totals table's column count. */
export const TOTALS_COLUMNS = 4 + forecastVariables.length;
