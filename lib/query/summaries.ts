// Aggregate and normals queries against a snapshot: validate like the daily queries, read each name's days, summarise.
import { defaults, type UnitSystem, unitLabel } from '../catalogue.js';
import { formatDay, resolveRange } from '../dates.js';
import { InvalidParameterError } from '../errors.js';
import { attributeColumns, type Block, type Frame, type FrameColumn, type Measure, sameDay } from '../format/frame.js';
import { frameStream, type RecordStream } from '../format/stream.js';
import { pickAttributes } from '../store/metadata.js';
import type { Snapshot } from '../store/open-snapshot.js';
import type { ReservoirRangeQuery, StationRangeQuery } from '../types.js';
import { roundValue } from '../units.js';
import { aggregateBlock, convertAggregate, type Method, methodOf, type PeriodValues, resolveStatistic } from './aggregate.js';
import { countFlags, flagCountColumns } from './day-counts.js';
import { firstReservoirDay, firstStationDay } from './latest.js';
import { normalOf, normalPeriods, normalStatistics } from './normals.js';
import { type Interval, intervals, monthDay, periodsOf } from './periods.js';
import { estimateReadRows, resolveAttributes, type Selection, selectReservoirs, selectStations } from './plan.js';
import { reservoirSeries, reservoirSeriesMany, stationSeries } from './series.js';
import { VALUES_PER_GROUP } from './timeseries.js';

/** What an aggregate query adds to a date-range query. */
export interface AggregateOptions {
  interval?: Interval; // 'monthly' (default), 'annual' or 'water-year' (October to September, named by the year it ends in)
  statistic?: string; // one of aggregate.ts's statistics, overriding every variable's default (sum, circular mean or mean); any other is refused
  compareTo?: string; // 'normal', the one value (any other is refused); // monthly only: adds "<key> pct_of_normal", 100 x value / the month's normal mean
  baseStart?: string; // base period of the normal (default: the first day held)
  baseEnd?: string; // default: the last day held
}

/** What a normals query takes. */
export interface NormalsOptions {
  period?: string; // 'month' (default): statistics of monthly values; 'day': of daily values by MM-DD; any other is refused
  baseStart?: string; // default: the first day the store holds for what was asked
  baseEnd?: string; // default: the last day held (latest)
  statistic?: string; // how days make the monthly values (default: each variable's own); checked as in AggregateOptions
}

export type ReservoirAggregateQuery = ReservoirRangeQuery & AggregateOptions;
export type StationAggregateQuery = StationRangeQuery & AggregateOptions;
export type ReservoirNormalsQuery = Omit<ReservoirRangeQuery, 'start' | 'end'> & NormalsOptions;
export type StationNormalsQuery = Omit<StationRangeQuery, 'start' | 'end'> & NormalsOptions;

/** A query's selection (lib/query/plan.ts) and how to read its names' series, for reservoirs or stations alike. */
interface Resolved extends Selection {
  first: () => number | undefined;
  series: (name: string, startDay: number, endDay: number) => Promise<Block>;
  seriesMany?: (names: readonly string[], startDay: number, endDay: number) => Promise<Map<string, Block>>; // several names, each row group read once
  readRows: (startDay: number, endDay: number) => number; // estimateReadRows of the names over the days
  dayFlags: boolean; // the days carry a qflag of their own (reservoirs), counted per period
}

function resolveReservoirs(s: Snapshot, query: Omit<ReservoirRangeQuery, 'start' | 'end'>): Resolved {
  const selection = selectReservoirs(s, query);
  const { columns } = selection;
  const used = [...new Set(columns.map((v) => v.dataset!))];
  // the day flags are read with the first dataset's values, as the daily answers read them, as one more column
  const read = columns.length > 0 ? [...columns, { ...columns[0]!, name: 'qflag', key: 'qflag' }] : columns;
  return {
    ...selection,
    first: () => firstReservoirDay(s.manifest, used),
    series: (name, a, b) => reservoirSeries(s, name, read, a, b),
    seriesMany: (group, a, b) => reservoirSeriesMany(s, group, read, a, b),
    readRows: (startDay, endDay) => estimateReadRows(s, { ...selection, startDay, endDay }),
    dayFlags: columns.length > 0,
  };
}

function resolveStations(s: Snapshot, query: Omit<StationRangeQuery, 'start' | 'end'>): Resolved {
  const selection = selectStations(s, query);
  const { names, columns } = selection;
  return {
    ...selection,
    first: () => firstStationDay(s.manifest, names),
    series: (name, a, b) => stationSeries(s, name, columns, a, b),
    readRows: (startDay, endDay) => estimateReadRows(s, { ...selection, startDay, endDay }),
    dayFlags: false,
  };
}

/** Reservoir aggregates: one record per reservoir and period, streamed a reservoir at a time. */
export function streamReservoirAggregates(s: Snapshot, query: ReservoirAggregateQuery = {}): RecordStream {
  return aggregates(resolveReservoirs(s, query), query);
}

/**
 * Reservoir aggregates of blocks made elsewhere (the model's what-if): `seriesMany` gives each name's block of the
 * variables asked (columns in that order), in place of the stored values.
 */
export function streamReservoirAggregatesOf(
  s: Snapshot,
  query: ReservoirAggregateQuery,
  seriesMany: (names: readonly string[], variables: readonly string[], startDay: number, endDay: number) => Promise<Map<string, Block>>,
): RecordStream {
  const r = resolveReservoirs(s, query);
  const variables = r.columns.map((v) => v.name);
  const many = (group: readonly string[], a: number, b: number) => seriesMany(group, variables, a, b);
  const one = async (name: string, a: number, b: number) => (await many([name], a, b)).get(name)!;
  return aggregates({ ...r, series: one, seriesMany: many, dayFlags: false }, query);
}

/** Station aggregates: one record per station and period. */
export function streamStationAggregates(s: Snapshot, query: StationAggregateQuery = {}): RecordStream {
  return aggregates(resolveStations(s, query), query);
}

/** Reservoir normals: one record per reservoir and calendar month (or day of the year). */
export function streamReservoirNormals(s: Snapshot, query: ReservoirNormalsQuery = {}): RecordStream {
  return normals(resolveReservoirs(s, query), query);
}

/** Station normals: one record per station and calendar month (or day of the year). */
export function streamStationNormals(s: Snapshot, query: StationNormalsQuery = {}): RecordStream {
  return normals(resolveStations(s, query), query);
}

function aggregates(r: Resolved, query: AggregateOptions & { start?: string; end?: string; alsoReturn?: readonly string[] }): RecordStream {
  const statistic = resolveStatistic(query.statistic);
  const { startDay, endDay } = resolveRange(query.start ?? defaults.start_date, query.end ?? defaults.end_date, r.latest);
  const attributes = resolveAttributes(refuseDayFlags(query.alsoReturn), r.metadata.attributes);
  const interval = query.interval ?? 'monthly';
  if (!intervals.includes(interval))
    throw new InvalidParameterError(
      'interval',
      `interval must be one of ${intervals.join(', ')}; got ${JSON.stringify(String(interval))}`,
      'not-allowed',
      interval,
    );
  const compare = resolveCompareTo(query.compareTo, interval);
  const base = compare ? resolveBase(r, query) : undefined;
  const methods = r.columns.map((v) => methodOf(v, statistic));
  const pctKeys = compare ? r.columns.map((v) => `${v.key} pct_of_normal`) : [];
  const countKeys = r.columns.map((v) => `${v.key} n`); // the days with a value, beside n_days (calendar days)
  const flagKeys = r.dayFlags ? flagCountColumns : [];
  const columns = [
    r.nameKey,
    'start_date',
    'end_date',
    'n_days',
    ...flagKeys,
    ...r.columns.map((v) => v.key),
    ...countKeys,
    ...pctKeys,
    ...attributes.filter((a) => a !== r.nameKey),
  ];
  const periods = periodsOf(startDay, endDay, interval);
  const readRows = r.readRows(startDay, endDay) + (base ? r.readRows(base.startDay, base.endDay) : 0); // compare_to reads the base too
  // a record per name and period with days held at most
  const [first, last] = [Math.max(startDay, r.first() ?? startDay), Math.min(endDay, r.latest() ?? endDay)];
  const heldPeriods = first <= last ? periodsOf(first, last, interval).length : 0;
  return frameStream(columns, run, readRows, r.names.length * heldPeriods);

  async function* run(): AsyncGenerator<Frame> {
    for await (const [name, block] of namedBlocks(r, startDay, endDay)) {
      const normal = base ? monthlyNormals(r, methods, await r.series(name, base.startDay, base.endDay), base) : undefined;
      yield frameOf(name, block, normal);
    }
  }

  // a row per period with days held: its dates, counts, values and their share of the normal, then the attributes
  function frameOf(name: string, block: Block, normal: Stats[][] | undefined): Frame {
    const pvs = aggregateBlock(block, periods, methods);
    const rows = pvs.length;
    const out: FrameColumn[] = [
      { key: r.nameKey, kind: 'same', value: name },
      { key: 'start_date', kind: 'day', days: Int32Array.from(pvs, (pv) => pv.period.start) },
      { key: 'end_date', kind: 'day', days: Int32Array.from(pvs, (pv) => pv.period.end) },
      { key: 'n_days', kind: 'number', values: Float64Array.from(pvs, (pv) => pv.period.end - pv.period.start + 1) },
    ];
    if (r.dayFlags) {
      const counts = pvs.map((pv) => countFlags(block.days, block.columns[r.columns.length], pv.period));
      flagKeys.forEach((key, k) => out.push({ key, kind: 'number', values: Float64Array.from(counts, (c) => c[k] ?? NaN) }));
    }
    const values = r.columns.map((v, j) => Float64Array.from(pvs, (pv) => convertAggregate(pv.values[j]!, v, methods[j]!, pv.counts[j]!)));
    r.columns.forEach((v, j) =>
      out.push({ key: v.key, kind: 'number', values: values[j]!.map((x) => wire(x, methods[j]!)), ...measureOf(v, r.system, methods[j]!) }),
    );
    countKeys.forEach((key, j) => out.push({ key, kind: 'number', values: Float64Array.from(pvs, (pv) => (block.columns[j] ? pv.counts[j]! : 0)) }));
    r.columns.forEach((v, j) => {
      if (!normal) return;
      const pct = new Float64Array(rows);
      pvs.forEach((pv, i) => {
        const mean = normal[pv.period.month - 1]![j]!.mean;
        const value = values[j]![i]!;
        const usable = pv.period.whole && methods[j] !== 'circular-mean' && !Number.isNaN(value) && !Number.isNaN(mean) && mean !== 0;
        pct[i] = usable ? (100 * value) / mean : NaN;
      });
      out.push({ key: pctKeys[j]!, kind: 'number', values: pct, variable: v.name, unit: '%', statistic: 'pct_of_normal' });
    });
    out.push(...attributeColumns(pickAttributes(r.metadata, name, attributes), r.nameKey));
    return { rows, columns: out };
  }
}

// what a value column of a variable measures, in the answer's unit system
function measureOf(v: Selection['columns'][number], system: UnitSystem, statistic: string): Measure {
  return { variable: v.name, unit: unitLabel(v.unit, system), statistic };
}

function normals(r: Resolved, query: NormalsOptions & { alsoReturn?: readonly string[] }): RecordStream {
  const statistic = resolveStatistic(query.statistic);
  const base = resolveBase(r, query);
  const attributes = resolveAttributes(refuseDayFlags(query.alsoReturn), r.metadata.attributes);
  const period = query.period ?? 'month';
  if (!(normalPeriods as readonly string[]).includes(period))
    throw new InvalidParameterError(
      'period',
      `period must be one of ${normalPeriods.join(', ')}; got ${JSON.stringify(String(period))}`,
      'not-allowed',
      period,
    );
  const methods = r.columns.map((v) => methodOf(v, statistic));
  const statKeys = r.columns.flatMap((v) => normalStatistics.map((st) => `${v.key} ${st}`));
  const columns = [r.nameKey, period, 'start_date', 'end_date', ...statKeys, ...attributes.filter((a) => a !== r.nameKey)];
  const groups = period === 'month' ? 12 : dayLabels.length; // a record per name and calendar month or MM-DD at most
  const run = async function* (): AsyncGenerator<Frame> {
    for await (const [name, block] of namedBlocks(r, base.startDay, base.endDay)) {
      const groups = period === 'month' ? monthlyNormals(r, methods, block, base) : dailyNormals(r, methods, block);
      const kept = groups.flatMap((stats, g) => (stats.every((st) => st.n === 0) ? [] : [g]));
      const rows = kept.length;
      const out: FrameColumn[] = [
        { key: r.nameKey, kind: 'same', value: name },
        { key: period, kind: 'value', values: kept.map((g) => (period === 'month' ? g + 1 : dayLabels[g]!)) },
        sameDay('start_date', base.startDay, rows),
        sameDay('end_date', base.endDay, rows),
      ];
      r.columns.forEach((v, j) => {
        for (const st of normalStatistics) {
          const values = Float64Array.from(kept, (g) => (st === 'n' ? groups[g]![j]!.n : wire(groups[g]![j]![st], methods[j]!)));
          out.push({ key: `${v.key} ${st}`, kind: 'number', values, ...(st === 'n' ? {} : measureOf(v, r.system, st)) });
        }
      });
      out.push(...attributeColumns(pickAttributes(r.metadata, name, attributes), r.nameKey));
      yield { rows, columns: out };
    }
  };
  return frameStream(columns, run, r.readRows(base.startDay, base.endDay), r.names.length * groups);
}

// each name with days in the range and its block, names read together in chunks of about VALUES_PER_GROUP values
async function* namedBlocks(r: Resolved, startDay: number, endDay: number): AsyncGenerator<[string, Block]> {
  const chunk = Math.max(1, Math.floor(VALUES_PER_GROUP / ((endDay - startDay + 1) * Math.max(1, r.columns.length))));
  for (let c = 0; c < r.names.length; c += chunk) {
    const group = r.names.slice(c, c + chunk);
    const blocks = r.seriesMany && group.length > 1 ? await r.seriesMany(group, startDay, endDay) : undefined;
    for (const name of group) {
      const block = blocks?.get(name) ?? (await r.series(name, startDay, endDay));
      if (block.days.length > 0) yield [name, block];
    }
  }
}

// every MM-DD of a leap year: the groups of daily normals
const dayLabels = Array.from({ length: 366 }, (_, i) => monthDay(Date.UTC(2000, 0, 1) / 86_400_000 + i));

type Stats = ReturnType<typeof normalOf>;

// statistics by calendar month (12 groups) of the whole months of the base period, in the answer's units
function monthlyNormals(r: Resolved, methods: readonly Method[], block: Block, base: { startDay: number; endDay: number }): Stats[][] {
  const byMonth: number[][][] = Array.from({ length: 12 }, () => r.columns.map(() => []));
  const whole = periodsOf(base.startDay, base.endDay, 'monthly');
  const monthly: PeriodValues[] = block.days.length === 0 ? [] : aggregateBlock(block, whole, methods);
  for (const pv of monthly) {
    if (!pv.period.whole) continue; // a clipped month at the base's ends would bias sums
    r.columns.forEach((v, j) => byMonth[pv.period.month - 1]![j]!.push(convertAggregate(pv.values[j]!, v, methods[j]!, pv.counts[j]!)));
  }
  return byMonth.map((vars) => vars.map((values, j) => normalOf(values, methods[j]!)));
}

// statistics by day of the year (MM-DD, 366 groups) of the daily values, in the answer's units
function dailyNormals(r: Resolved, methods: readonly Method[], block: Block): Stats[][] {
  const index = new Map(dayLabels.map((label, i) => [label, i]));
  const byDay: number[][][] = dayLabels.map(() => r.columns.map(() => []));
  for (let i = 0; i < block.days.length; i++) {
    const g = index.get(monthDay(block.days[i]!))!;
    r.columns.forEach((v, j) => {
      const value = block.columns[j]?.[i];
      if (value !== undefined && !Number.isNaN(value)) byDay[g]![j]!.push(convertAggregate(value, v, 'mean', 1));
    });
  }
  return byDay.map((vars) => vars.map((values, j) => normalOf(values, methods[j]! === 'circular-mean' ? 'circular-mean' : 'mean')));
}

function resolveBase(r: Resolved, query: { baseStart?: string; baseEnd?: string }): { startDay: number; endDay: number } {
  const first = r.first();
  const start = query.baseStart ?? (first === undefined ? 'latest' : formatDay(first));
  return resolveRange(start, query.baseEnd ?? 'latest', r.latest, ['base_start', 'base_end']);
}

function resolveCompareTo(value: string | undefined, interval: Interval): boolean {
  if (value === undefined) return false;
  if (value !== 'normal')
    throw new InvalidParameterError('compare_to', `compare_to must be normal; got ${JSON.stringify(value.slice(0, 40))}`, 'not-allowed', value);
  if (interval !== 'monthly')
    throw new InvalidParameterError(
      'compare_to',
      'compare_to=normal is available on monthly aggregates only (normals are by calendar month)',
      'not-allowed',
      value,
    );
  return true;
}

// a value as the wire shows it once rounded to 4 decimals (NaN: null): a circular mean that rounds to 360 is 0
function wire(value: number, method: Method): number {
  return method === 'circular-mean' && roundValue(value) === 360 ? 0 : value;
}

// a period has many days and so no one status; qflag stays the reservoir-level metadata value here (docs/flags-and-history.md)
function refuseDayFlags(alsoReturn: readonly string[] | undefined): readonly string[] | undefined {
  if (alsoReturn?.includes('status')) {
    throw new InvalidParameterError(
      'also_return',
      'status is a flag of each day and an aggregate spans many days: ask the daily records with also_return=status',
      'not-allowed',
      'status',
    );
  }
  return alsoReturn;
}
