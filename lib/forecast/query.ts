// The forecast operations (lib/operations.ts): each checks its options and works out its columns at once (so errors
// come before the first record), then reads the issues it needs and yields one batch of records per reservoir.
import { type UnitSystem, unitLabel } from '../catalogue.js';
import { clip, formatDay, parseDay, parseRange } from '../dates.js';
import { InvalidParameterError } from '../errors.js';
import {
  defaultStatistics,
  type ForecastVariable,
  forecastAttributes,
  forecastKey,
  forecastVariableInfo,
  forecastVariables,
  MAX_LEAD,
  memberName,
  statisticValues,
} from '../forecast-variables.js';
import { attributeColumns, type Frame, type FrameColumn, sameDay } from '../format/frame.js';
import { frameStream, type RecordStream } from '../format/stream.js';
import type { OptionsOf } from '../operations.js';
import { resolveAllowed, resolveAttributes, resolveReservoirNames, resolveUnits } from '../query/plan.js';
import type { ForecastIssue, ForecastMonth } from '../store/manifest.js';
import type { Snapshot } from '../store/open-snapshot.js';
import type { WireRecord, WireValue } from '../types.js';
import { conversionOf, convert } from '../units.js';
import { issueHolds, issuesOf, readIssue } from './files.js';
import type { Issue, ReservoirForecast } from './issue.js';
import { type EstimateVariable, referenceInputs, referenceOf } from './reference.js';
import { type EnsembleStatistic, ensembleStatistics, totalStats, type VerificationCase, verify } from './stats.js';
import { readTotals, TOTAL_WINDOWS } from './totals.js';

/** Where the forecasts are read from, and the day's estimates (metric) of some reservoirs and variables over a range of days. */
export interface ForecastSource {
  snapshot: Snapshot; // its reader reads the forecasts' files, on the store's caches
  estimates(names: readonly string[], variables: readonly EstimateVariable[], start: number, end: number): Promise<Estimates>;
}

/** Estimates by name, variable and day (NaN where none). */
export type Estimates = Map<string, Map<EstimateVariable, Map<number, number>>>;

type Held = { month: ForecastMonth; issue: ForecastIssue };

// ---- checking the options ----

function checkVariables(variables: readonly string[] | undefined): ForecastVariable[] {
  return resolveAllowed(variables, forecastVariables, forecastVariables, 'variables', 'forecast variable');
}

function checkStatistics(statistics: readonly string[] | undefined): { stats: EnsembleStatistic[]; members: boolean } {
  const list = resolveAllowed(statistics, defaultStatistics, statisticValues, 'statistics', 'statistic');
  return { stats: list.filter((s) => s !== 'members') as EnsembleStatistic[], members: list.includes('members') };
}

/** start_date and end_date, each defaulting to the given day; their order is checked when both are given. */
function checkRange(query: { start?: string; end?: string }, first: number, last: number): [number, number] {
  if (query.start === undefined || query.end === undefined)
    return [query.start === undefined ? first : parseDay(query.start, 'start_date'), query.end === undefined ? last : parseDay(query.end, 'end_date')];
  const { startDay, endDay } = parseRange(query.start, query.end);
  return [startDay, endDay];
}

/** `leads`: one lead day (`7`) or a range (`1-7`) within 1-28. */
function parseLeads(value: string | undefined): [number, number] {
  const text = value ?? `1-${MAX_LEAD}`;
  const match = /^(\d{1,2})(?:-(\d{1,2}))?$/.exec(text);
  const from = Number(match?.[1]);
  const to = match?.[2] === undefined ? from : Number(match[2]);
  if (!match || from < 1 || to > MAX_LEAD || from > to)
    throw new InvalidParameterError(
      'leads',
      `leads must be a lead day from 1 to ${MAX_LEAD} (7) or a range of them (1-7); got ${JSON.stringify(clip(text))}`,
      'malformed',
      text,
    );
  return [from, to];
}

function parseLead(value: string | undefined): number {
  const text = value ?? '7';
  const lead = /^\d{1,2}$/.test(text) ? Number(text) : Number.NaN;
  if (!(lead >= 1 && lead <= MAX_LEAD))
    throw new InvalidParameterError('lead', `lead must be a whole number of days from 1 to ${MAX_LEAD}; got ${JSON.stringify(clip(text))}`, 'malformed', text);
  return lead;
}

/** The issue asked for: `latest` (the default: the newest held), or a date; undefined when none was issued that day. */
function findIssue(s: Snapshot, issued: string | undefined): Held | undefined {
  const all = issuesOf(s.manifest);
  if (issued === undefined || issued === 'latest') return all.at(-1);
  const day = formatDay(parseDay(issued, 'issued'));
  return all.find((h) => h.issue.issued === day);
}

function attributesOf(s: Snapshot, name: string, attributes: readonly string[]): WireRecord {
  if (attributes.length === 0) return {}; // the metadata's rows are decoded on first use: at 44,000 reservoirs, 40 ms
  const row = s.reservoirs.byName.get(name) ?? {};
  return Object.fromEntries(attributes.map((a) => [a, (row[a] ?? null) as WireValue]));
}

// a stored value in the answer's units, NaN for none (the encoders round it to 4 decimals, NaN as null)
const value = (x: number | undefined, factor: { factor: number; offset: number }): number => (x === undefined ? NaN : convert(x, factor));

function refuseMissingMembers(held: Held): void {
  throw new InvalidParameterError(
    'statistics',
    `the members of the issue of ${held.issue.issued} were not kept (the store keeps its statistics only); ask for statistics without members`,
    'not-allowed',
    'members',
  );
}

// ---- the streams: a frame per reservoir ----

/** The value columns of a reservoir's rows: `at(k, row)` gives key k's stored value in that row. */
function valueColumns(keys: readonly ValueKey[], rows: number, at: (k: ValueKey, row: number) => number | undefined): FrameColumn[] {
  return keys.map((k) => ({
    key: k.key,
    kind: 'number',
    values: Float64Array.from({ length: rows }, (_, row) => value(at(k, row), k.conversion)),
    variable: k.variable,
    unit: k.unit,
    statistic: k.statistic >= 0 ? ensembleStatistics[k.statistic] : memberName(-1 - k.statistic),
  }));
}

const numbers = (key: string, values: ArrayLike<number>): FrameColumn => ({ key, kind: 'number', values: Float64Array.from(values) });

/** The options of one issue's answers (daily, total), checked, and the issue asked for (undefined: none that day). */
function checkIssueQuery(source: ForecastSource, query: OptionsOf<'forecastDaily'> | OptionsOf<'forecastTotal'>) {
  const s = source.snapshot;
  const names = resolveReservoirNames(s, query.names); // in the order of the parameters: the first bad one is named
  const variables = checkVariables(query.variables);
  const system = resolveUnits(query.units);
  const { stats, members } = checkStatistics(query.statistics);
  const [from, to] = parseLeads(query.leads);
  const attributes = resolveAttributes(query.alsoReturn, forecastAttributes);
  return { s, names, variables, system, stats, members, from, to, attributes, held: findIssue(s, query.issued) };
}

/** GET /forecast/daily/reservoirs: one record per reservoir, lead day. */
export function forecastDaily(source: ForecastSource, query: OptionsOf<'forecastDaily'>): RecordStream {
  const { s, names, variables, system, stats, members, from, to, attributes, held } = checkIssueQuery(source, query);
  if (held && members && held.issue.members === 0) refuseMissingMembers(held);
  const count = members && held ? held.issue.members : 0;
  const keys = valueKeys(variables, system, stats, count);
  const columns = ['RES_NAME', 'issued', 'valid_date', 'lead_days', ...keys.map((k) => k.key), ...attributes];
  return frameStream(columns, async function* () {
    if (!held) return;
    const issue = await readIssue(source.snapshot.reader, held.month, held.issue, members, { names, variables, totals: false });
    const rows = to - from + 1;
    const leads = Array.from({ length: rows }, (_, row) => from + row);
    for (const name of names) {
      const f = issue.byName.get(name);
      if (!f) continue;
      const frame: Frame = {
        rows,
        columns: [
          { key: 'RES_NAME', kind: 'same', value: name },
          sameDay('issued', issue.issued, rows),
          { key: 'valid_date', kind: 'day', days: Int32Array.from(leads, (lead) => issue.issued + lead) },
          numbers('lead_days', leads),
          ...valueColumns(keys, rows, (k, row) => pick(f, k, leads[row]!)),
          ...attributeColumns(attributesOf(s, name, attributes)),
        ],
      };
      yield frame;
    }
  });
}

interface ValueKey {
  key: string;
  variable: ForecastVariable;
  statistic: number; // position among the statistics, or -1 - member index
  conversion: { factor: number; offset: number };
  unit: string; // its label in the answer's unit system
}

function valueKeys(variables: readonly ForecastVariable[], system: UnitSystem, stats: readonly EnsembleStatistic[], members: number): ValueKey[] {
  return variables.flatMap((variable) => {
    const conversion = conversionOf(forecastVariableInfo(variable).unit, system);
    const unit = unitLabel(forecastVariableInfo(variable).unit, system);
    return [
      ...stats.map((st) => ({ key: forecastKey(variable, system, st), variable, statistic: ensembleStatistics.indexOf(st), conversion, unit })),
      ...Array.from({ length: members }, (_, m) => ({ key: forecastKey(variable, system, memberName(m)), variable, statistic: -1 - m, conversion, unit })),
    ];
  });
}

function pick(f: ReservoirForecast, k: ValueKey, lead: number): number | undefined {
  if (k.statistic >= 0) return f.stats[k.variable][k.statistic * MAX_LEAD + lead - 1];
  const m = -1 - k.statistic;
  return m < f.count ? f.members?.[k.variable][m * MAX_LEAD + lead - 1] : undefined;
}

/** GET /forecast/daily/reservoirs/lead: one record per reservoir and valid date, the forecast issued `lead` days before and the day's estimate. */
export function forecastLead(source: ForecastSource, query: OptionsOf<'forecastLead'>): RecordStream {
  const s = source.snapshot;
  const names = resolveReservoirNames(s, query.names);
  const variables = checkVariables(query.variables);
  const system = resolveUnits(query.units);
  const { stats, members } = checkStatistics(query.statistics);
  const lead = parseLead(query.lead);
  const attributes = resolveAttributes(query.alsoReturn, forecastAttributes);
  const all = issuesOf(s.manifest);
  const first = all.length > 0 ? parseDay(all[0]!.issue.issued, 'issued') + lead : 0;
  const last = all.length > 0 ? parseDay(all.at(-1)!.issue.issued, 'issued') + lead : -1;
  const [start, end] = checkRange(query, first, last);
  const byDay = new Map(all.map((h) => [parseDay(h.issue.issued, 'issued') + lead, h]));
  const wanted = [...byDay.entries()].filter(([day]) => day >= start && day <= end);
  // over a range of issues, members where kept: a day whose issue kept fewer (or none) has nulls there
  const count = members ? Math.max(0, ...wanted.map(([, h]) => h.issue.members)) : 0;
  const keys = valueKeys(variables, system, stats, count);
  const observedKeys = variables.map((v) => ({
    v,
    key: forecastKey(v, system, 'observed'),
    conversion: conversionOf(forecastVariableInfo(v).unit, system),
    unit: unitLabel(forecastVariableInfo(v).unit, system),
  }));
  const columns = ['RES_NAME', 'valid_date', 'issued', 'lead_days', ...keys.map((k) => k.key), ...observedKeys.map((k) => k.key), ...attributes];
  return frameStream(columns, async function* () {
    if (wanted.length === 0) return;
    const issues = new Map<number, Issue>();
    for (const [day, h] of wanted) issues.set(day, await readIssue(source.snapshot.reader, h.month, h.issue, members, { names, variables, totals: false }));
    const observed = await source.estimates(names, variables, wanted[0]![0], wanted.at(-1)![0]);
    for (const name of names) {
      const held = [...issues].flatMap(([day, issue]) => {
        const f = issue.byName.get(name);
        return f ? [{ day, issue, f }] : [];
      });
      if (held.length === 0) continue;
      const rows = held.length;
      const frame: Frame = {
        rows,
        columns: [
          { key: 'RES_NAME', kind: 'same', value: name },
          { key: 'valid_date', kind: 'day', days: Int32Array.from(held, (h) => h.day) },
          { key: 'issued', kind: 'day', days: Int32Array.from(held, (h) => h.issue.issued) },
          numbers('lead_days', new Float64Array(rows).fill(lead)),
          ...valueColumns(keys, rows, (k, row) => pick(held[row]!.f, k, lead)),
          ...observedKeys.map(
            (k): FrameColumn => ({
              key: k.key,
              kind: 'number',
              values: Float64Array.from(held, (h) => value(observed.get(name)?.get(k.v)?.get(h.day), k.conversion)),
              variable: k.v,
              unit: k.unit,
              statistic: 'observed',
            }),
          ),
          ...attributeColumns(attributesOf(s, name, attributes)),
        ],
      };
      yield frame;
    }
  });
}

/** GET /forecast/total/reservoirs: one record per reservoir, the statistics of its total over the leads. */
export function forecastTotal(source: ForecastSource, query: OptionsOf<'forecastTotal'>): RecordStream {
  const { s, names, variables, system, stats, members, from, to, attributes, held } = checkIssueQuery(source, query);
  // a total from lead 1 is stored; any other needs the members, summed then summarized
  const needsMembers = members || from > 1;
  if (held && needsMembers && held.issue.members === 0) {
    if (members) refuseMissingMembers(held);
    throw new InvalidParameterError(
      'leads',
      `a total over leads ${from}-${to} is made from the members, which were not kept for the issue of ${held.issue.issued}; ask leads 1-${to} (stored for every issue)`,
      'not-allowed',
      query.leads,
    );
  }
  // reservoirs loaded without members have no totals: refused, rather than answered with nulls
  const lacking = held?.issue.withoutTotals?.filter((name) => names.includes(name)) ?? [];
  if (lacking.length > 0)
    throw new InvalidParameterError(
      'RES_NAMES',
      `a total is made from the members, and the forecast${lacking.length > 1 ? 's' : ''} of ${lacking.slice(0, 3).join(', ')}${lacking.length > 3 ? ` and ${lacking.length - 3} more` : ''} issued ${held!.issue.issued} ${lacking.length > 1 ? 'were' : 'was'} loaded without members (statistics only); ask /forecast/daily/reservoirs for the daily statistics`,
      'not-allowed',
      lacking[0],
    );
  const count = members && held ? held.issue.members : 0;
  const keys = valueKeys(variables, system, stats, count);
  const columns = ['RES_NAME', 'issued', 'start_date', 'end_date', 'leads', ...keys.map((k) => k.key), ...attributes];
  const issued = held ? parseDay(held.issue.issued, 'issued') : 0;
  const leads = `${from}-${to}`;
  // a reservoir's one row: its issue and window, then the values of the keys
  const totalFrame = (name: string, issuedDay: number, at: (k: ValueKey) => number | undefined): Frame => ({
    rows: 1,
    columns: [
      { key: 'RES_NAME', kind: 'same', value: name },
      sameDay('issued', issuedDay, 1),
      sameDay('start_date', issuedDay + from, 1),
      sameDay('end_date', issuedDay + to, 1),
      { key: 'leads', kind: 'same', value: leads },
      ...valueColumns(keys, 1, at),
      ...attributeColumns(attributesOf(s, name, attributes)),
    ],
  });
  return frameStream(columns, async function* () {
    if (!held) return;
    // the issue's totals table, when it holds the window: every reservoir's totals in a few small row groups
    if (!needsMembers && held.month.totals && TOTAL_WINDOWS.includes(to)) {
      const t = await readTotals(source.snapshot.reader, held.month.totals, to, stats, variables);
      const columnOf = new Map(keys.map((k) => [k, t.values.get(`${k.variable} ${ensembleStatistics[k.statistic]}`)!]));
      for (const name of names) {
        const i = t.row.get(name);
        if (i === undefined) continue;
        yield totalFrame(name, issued, (k) => columnOf.get(k)![i]);
      }
      return;
    }
    // the stored totals' statistics, or the members (a total's statistics are made from them): never the daily ones
    const issue = await readIssue(source.snapshot.reader, held.month, held.issue, needsMembers, { names, variables, daily: false, totals: true });
    for (const name of names) {
      const f = issue.byName.get(name);
      if (!f) continue;
      const computed = new Map<ForecastVariable, { stats: Record<EnsembleStatistic, number>; sums: number[] }>();
      yield totalFrame(name, issue.issued, (k) => {
        if (from === 1 && k.statistic >= 0) return f.totals[k.variable][k.statistic * MAX_LEAD + to - 1];
        let c = computed.get(k.variable);
        if (!c) {
          const m = Array.from({ length: f.count }, (_, i) => f.members![k.variable].subarray(i * MAX_LEAD, (i + 1) * MAX_LEAD));
          const sums = m.map((member) => member.slice(from - 1, to).reduce((a, b) => a + b, 0));
          computed.set(k.variable, (c = { stats: totalStats(m, from, to), sums }));
        }
        return k.statistic >= 0 ? c.stats[ensembleStatistics[k.statistic]!] : c.sums[-1 - k.statistic];
      });
    }
  });
}

// the verification's columns after the lead, in the order of the answer
const verificationMetrics = ['n', 'bias', 'mae', 'rmse', 'crps', 'n_crps', 'coverage_80', 'mae_normal', 'skill'] as const;

/** GET /forecast/verification/reservoirs: one record per reservoir, variable and lead, over the issues in a range. */
export function forecastVerification(source: ForecastSource, query: OptionsOf<'forecastVerification'>): RecordStream {
  const s = source.snapshot;
  const names = resolveReservoirNames(s, query.names);
  const variables = checkVariables(query.variables);
  const system = resolveUnits(query.units);
  const [from, to] = parseLeads(query.leads);
  const [start, end] = checkRange(query, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
  const held = issuesOf(s.manifest).filter((h) => {
    const day = parseDay(h.issue.issued, 'issued');
    return day >= start && day <= end;
  });
  const columns = ['RES_NAME', 'variable', 'units', 'lead_days', ...verificationMetrics];
  return frameStream(columns, async function* () {
    if (held.length === 0) return;
    const issues: Issue[] = [];
    for (const h of held) issues.push(await readIssue(source.snapshot.reader, h.month, h.issue, true, { names, variables, totals: false }));
    // every estimate held: the verified days, and the other years' same days of the year that make their reference
    const dates = s.manifest.datasets;
    const spans = Object.values(dates).flatMap((d) => d.partitions.map((p) => [p.start, p.end]));
    if (spans.length === 0) return;
    const first = Math.min(...spans.map(([a]) => parseDay(a!, 'start_date')));
    const last = Math.max(...spans.map(([, b]) => parseDay(b!, 'end_date')));
    const observed = await source.estimates(names, [...new Set(variables.flatMap((v) => [v, ...referenceInputs(v)]))], first, last);
    for (const name of names) {
      if (!issues.some((i) => i.byName.has(name))) continue;
      const [variableOf, unitsOf, leadOf] = [[] as string[], [] as string[], [] as number[]];
      const metrics = verificationMetrics.map(() => [] as number[]);
      for (const variable of variables) {
        const days = observed.get(name)?.get(variable) ?? new Map<number, number>();
        const reference = referenceOf(variable, observed.get(name) ?? new Map());
        const conversion = conversionOf(forecastVariableInfo(variable).unit, system);
        const c = (x: number) => convert(x, conversion);
        for (let lead = from; lead <= to; lead++) {
          const cases: VerificationCase[] = [];
          for (const issue of issues) {
            const f = issue.byName.get(name);
            const day = issue.issued + lead;
            const y = days.get(day);
            if (!f || y === undefined || Number.isNaN(y)) continue;
            const at = (st: EnsembleStatistic) => f.stats[variable][ensembleStatistics.indexOf(st) * MAX_LEAD + lead - 1]!;
            const normal = reference(issue.issued, day);
            cases.push({
              mean: c(at('mean')),
              p10: c(at('p10')),
              p90: c(at('p90')),
              members: f.count > 0 ? Array.from({ length: f.count }, (_, m) => c(f.members![variable][m * MAX_LEAD + lead - 1]!)) : undefined,
              observed: c(y),
              normal: normal === undefined ? undefined : c(normal),
            });
          }
          const m = verify(cases);
          variableOf.push(variable);
          unitsOf.push(unitLabel(forecastVariableInfo(variable).unit, system));
          leadOf.push(lead);
          verificationMetrics.forEach((metric, j) => metrics[j]!.push(m[metric] ?? NaN));
        }
      }
      const frame: Frame = {
        rows: leadOf.length,
        columns: [
          { key: 'RES_NAME', kind: 'same', value: name },
          { key: 'variable', kind: 'value', values: variableOf },
          { key: 'units', kind: 'value', values: unitsOf },
          numbers('lead_days', leadOf),
          ...verificationMetrics.map((metric, j) => numbers(metric, metrics[j]!)),
        ],
      };
      yield frame;
    }
  });
}

/** One record of /forecast/info/list_issues: a reservoir's first and last issue date. */
export type ForecastIssueRange = { RES_NAME: string; start_date: string; end_date: string };

/**
 * GET /forecast/info/list_issues: per reservoir asked (RES_NAMES' default, or ALL), its first and last issue date; a
 * reservoir without forecasts is left out. Told by each issue's manifest entry (its reservoirs), or, for an issue
 * whose entry cannot tell (written before the entry kept them, or the store's reservoirs changed since), by its file.
 */
export async function listForecastIssues(source: Pick<ForecastSource, 'snapshot'>, names: readonly string[] | undefined): Promise<ForecastIssueRange[]> {
  const s = source.snapshot;
  const asked = resolveReservoirNames(s, names); // the API's default (as every RES_NAMES), or ALL
  const all = issuesOf(s.manifest);
  const holds = async (h: Held, name: string): Promise<boolean> =>
    issueHolds(h.issue, name, s.reservoirNames) ??
    (await readIssue(source.snapshot.reader, h.month, h.issue, false, { names: [name], variables: [], totals: false })).byName.has(name);
  const out: ForecastIssueRange[] = [];
  for (const name of asked) {
    let first: Held | undefined;
    for (const h of all)
      if (await holds(h, name)) {
        first = h;
        break;
      }
    if (!first) continue;
    let last = first;
    for (let i = all.length - 1; all[i] !== first; i--)
      if (await holds(all[i]!, name)) {
        last = all[i]!;
        break;
      }
    out.push({ RES_NAME: name, start_date: first.issue.issued, end_date: last.issue.issued });
  }
  return out;
}
