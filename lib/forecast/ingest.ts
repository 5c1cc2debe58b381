// Forecasts loaded from files: the long CSV (name,issued,valid_date,variable,member_or_statistic,value, metric) and
// the API's own JSON answers of /forecast/daily/reservoirs (any units, statistics and members). Each issue and
// reservoir given replaces the one held (a revision); the issues touched are rewritten (with those sharing a month's
// file with them, in stores written before) in one new snapshot, so the previous forecasts stay readable with as_of
// until a vacuum retires them.
import { parse } from 'csv-parse/sync';
import { findReservoirVariable, type UnitSystem, units } from '../catalogue.js';
import { formatDay, parseDay } from '../dates.js';
import { InvalidParameterError, NotFoundError, StoreError } from '../errors.js';
import { type ForecastVariable, forecastVariables, MAX_LEAD } from '../forecast-variables.js';
import { openStorage } from '../store/location.js';
import { createReaderCaches, PartitionReader } from '../store/partitions.js';
import { openReadback } from '../store/readback.js';
import type { Storage } from '../store/storage.js';
import { toMetric } from '../units.js';
import { createStoreWriter } from '../writer/write.js';
import { issuesOf, monthOf, readIssue } from './files.js';
import { forecastFromMembers, type Issue, type ReservoirForecast, statisticIndex } from './issue.js';
import { type EnsembleStatistic, ensembleStatistics } from './stats.js';
import { writeForecastIssues } from './write.js';

/** One value of the long form. */
export interface ForecastValue {
  name: string;
  issued: number; // epoch day
  lead: number; // 1-28
  variable: ForecastVariable;
  statistic: EnsembleStatistic | undefined;
  member: number | undefined; // 0-based
  value: number; // metric
  rounding: number; // the metric size of the last decimal the value was given to (1e-4 in its units), for checks
}

const HEADER = ['name', 'issued', 'valid_date', 'variable', 'member_or_statistic', 'value'];

/** The values of a long CSV; every problem names the file and line. */
export function parseForecastCsv(text: string, file: string): ForecastValue[] {
  const rows = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false }) as string[][];
  const header = rows[0]?.map((h) => h.trim());
  if (!header || header.join(',') !== HEADER.join(','))
    throw new InvalidParameterError('file', `${file}: the header must be ${HEADER.join(',')}; got ${JSON.stringify(rows[0]?.join(',') ?? '')}`);
  return rows.slice(1).map((row, i) => {
    const where = `${file} line ${i + 2}`;
    const [name, issued, valid, variable, which, value] = row as [string, string, string, string, string, string];
    const x = value.trim() === '' ? Number.NaN : Number(value);
    if (value.trim() !== '' && !Number.isFinite(x)) throw new InvalidParameterError('value', `${where}: value ${JSON.stringify(value)} is not a number`);
    return forecastValue(name, issued, valid, variable, which, x, where);
  });
}

function forecastValue(name: string, issuedText: string, validText: string, variable: string, which: string, value: number, where: string): ForecastValue {
  const issued = dayOf(issuedText, 'issued', where);
  const lead = dayOf(validText, 'valid_date', where) - issued;
  if (!(lead >= 1 && lead <= MAX_LEAD))
    throw new InvalidParameterError('valid_date', `${where}: valid_date ${validText} is ${lead} days after the issue; leads are 1 to ${MAX_LEAD}`);
  if (!(forecastVariables as readonly string[]).includes(variable))
    throw new InvalidParameterError('variable', `${where}: ${JSON.stringify(variable)} is not a forecast variable (${forecastVariables.join(', ')})`);
  const member = /^m(\d{2,3})$/.exec(which);
  const statistic = (ensembleStatistics as readonly string[]).includes(which) ? (which as EnsembleStatistic) : undefined;
  if (!member && !statistic)
    throw new InvalidParameterError(
      'member_or_statistic',
      `${where}: ${JSON.stringify(which)} is neither a statistic (${ensembleStatistics.join(', ')}) nor a member (m01, m02, ...)`,
    );
  if (member && Number(member[1]) < 1) throw new InvalidParameterError('member_or_statistic', `${where}: members count from m01`);
  return { name, issued, lead, variable: variable as ForecastVariable, statistic, member: member ? Number(member[1]) - 1 : undefined, value, rounding: 1e-4 };
}

function dayOf(text: string, parameter: string, where: string): number {
  try {
    return parseDay(text.trim(), parameter);
  } catch (error) {
    throw new InvalidParameterError(parameter, `${where}: ${(error as Error).message}`);
  }
}

/** The values of a JSON answer of /forecast/daily/reservoirs (keys `<variable> (<unit>) <statistic or member>`, any units). */
export function parseForecastAnswer(text: string, file: string): ForecastValue[] {
  let records: unknown;
  try {
    records = JSON.parse(text);
  } catch (error) {
    throw new InvalidParameterError('file', `${file}: not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(records)) throw new InvalidParameterError('file', `${file}: a forecast answer is a JSON array of records`);
  const out: ForecastValue[] = [];
  records.forEach((record: Record<string, unknown>, i) => {
    const where = `${file} record ${i + 1}`;
    for (const [key, value] of Object.entries(record)) {
      const match = /^(\S+) \(([^)]+)\) (\S+)$/.exec(key);
      if (!match || match[3] === 'observed') continue;
      const [, variable, label, which] = match as unknown as [string, string, string, string];
      const unit = findReservoirVariable(variable)?.spec.unit;
      const system: UnitSystem | undefined =
        unit === undefined ? undefined : units[unit].metric === label ? 'metric' : units[unit].english === label ? 'english' : undefined;
      if (unit === undefined || system === undefined)
        throw new InvalidParameterError('variable', `${where}: ${JSON.stringify(key)} is not a forecast key of known units`);
      const x = value === null ? Number.NaN : Number(value);
      const v = forecastValue(String(record.RES_NAME), String(record.issued), String(record.valid_date), variable, which, x, where);
      out.push({ ...v, value: Number.isNaN(x) ? x : toMetric(x, unit, system), rounding: system === 'metric' ? 1e-4 : 1e-4 / units[unit].factor });
    }
  });
  return out;
}

/** What an ingest of forecasts did. */
export interface ForecastIngestSummary {
  issues: number; // issue dates touched
  reservoirForecasts: number; // (issue, reservoir) pairs written
  months: string[]; // issue-months touched
  snapshot: string;
}

/**
 * Loads forecast values into the store at `location` as one new snapshot: each (issue, reservoir) given replaces the
 * one held. With members, the statistics (and the totals' statistics) are made from them, and statistics given too
 * must agree with them (to the 4 decimals of the wire); without, the statistics are taken as given and the totals,
 * which need members, are left empty.
 */
export async function ingestForecastValues(location: string | Storage, values: readonly ForecastValue[]): Promise<ForecastIngestSummary> {
  const storage = openStorage(location);
  const store = await openReadback(storage); // the snapshot built on, leased while it is read back, as an ingest reads it
  if (store === undefined) throw new StoreError(`no store at ${storage.location}: manifest.json is missing`);
  try {
    for (const v of values)
      if (!store.manifest.reservoirs.names.includes(v.name))
        throw new NotFoundError('RES_NAMES', [v.name], `reservoir not found: ${JSON.stringify(v.name)} (forecasts need the reservoir's metadata row first)`);
    const given = new Map<number, Map<string, ForecastValue[]>>();
    for (const v of values) {
      let byName = given.get(v.issued);
      if (!byName) given.set(v.issued, (byName = new Map()));
      let list = byName.get(v.name);
      if (!list) byName.set(v.name, (list = []));
      list.push(v);
    }
    const writer = createStoreWriter(storage, { base: store.manifest });
    const entries = store.manifest.forecasts ?? [];
    const touched = [...new Set([...given.keys()].map(monthOf))].sort();
    // the issues given, and those held with them in one file set (a month's, in stores written before), read back
    const days = new Set([...given.keys()].map(formatDay));
    const issues = new Map<number, Issue>();
    const reader = new PartitionReader(storage, createReaderCaches(0, 0)); // each issue read once: nothing kept
    for (const h of issuesOf(store.manifest).filter((h) => h.month.issues.some((i) => days.has(i.issued)))) {
      const issue = await readIssue(reader, h.month, h.issue, true);
      issues.set(issue.issued, { issued: issue.issued, byName: new Map(issue.byName) });
    }
    let pairs = 0;
    for (const [issued, byName] of given) {
      let issue = issues.get(issued);
      if (!issue) issues.set(issued, (issue = { issued, byName: new Map() }));
      for (const [name, list] of byName) {
        issue.byName.set(name, forecastOf(list, `${name} issued ${formatDay(issued)}`));
        pairs++;
      }
    }
    await writeForecastIssues(writer, entries, [...issues.values()]);
    const published = await writer.commit();
    return { issues: given.size, reservoirForecasts: pairs, months: touched, snapshot: published.snapshot };
  } finally {
    await store.close();
  }
}

/** One reservoir's forecast of one issue from its values (members, statistics or both; see ingestForecastValues). */
export function forecastOf(values: readonly ForecastValue[], what: string): ReservoirForecast {
  const memberValues = values.filter((v) => v.member !== undefined);
  if (memberValues.length > 0) {
    const count = Math.max(...memberValues.map((v) => v.member!)) + 1;
    const members = Object.fromEntries(forecastVariables.map((v) => [v, new Float64Array(count * MAX_LEAD).fill(Number.NaN)])) as Record<
      ForecastVariable,
      Float64Array
    >;
    for (const v of memberValues) members[v.variable][v.member! * MAX_LEAD + v.lead - 1] = v.value;
    for (const v of forecastVariables) {
      const given = memberValues.filter((x) => x.variable === v);
      if (given.length > 0 && given.length !== count * MAX_LEAD)
        throw new InvalidParameterError(
          'member_or_statistic',
          `${what}: ${v} has ${given.length} member values; ${count} members x ${MAX_LEAD} leads are needed`,
        );
    }
    const made = forecastFromMembers(members, count, true);
    for (const v of values) {
      if (v.statistic === undefined || Number.isNaN(v.value)) continue;
      const computed = made.stats[v.variable][statisticIndex[v.statistic] * MAX_LEAD + v.lead - 1]!;
      // members and statistic each rounded to the last decimal given, the statistic stored to 4 decimals
      if (Math.abs(computed - v.value) > v.rounding + 1e-4 + 1e-12 * Math.abs(computed))
        throw new InvalidParameterError(
          'member_or_statistic',
          `${what}: the ${v.statistic} of ${v.variable} at lead ${v.lead} is given as ${v.value}, but its members make ${computed}`,
        );
    }
    return made;
  }
  const filled = () =>
    Object.fromEntries(forecastVariables.map((v) => [v, new Float64Array(ensembleStatistics.length * MAX_LEAD).fill(Number.NaN)])) as Record<
      ForecastVariable,
      Float64Array
    >;
  const f: ReservoirForecast = { stats: filled(), totals: filled(), count: 0, members: undefined };
  for (const v of values) f.stats[v.variable][statisticIndex[v.statistic!] * MAX_LEAD + v.lead - 1] = v.value;
  // the percentiles given must be ordered, as any ensemble's are
  for (const v of forecastVariables)
    for (let lead = 1; lead <= MAX_LEAD; lead++) {
      let previous = Number.NEGATIVE_INFINITY;
      for (let s = 1; s < ensembleStatistics.length; s++) {
        const x = f.stats[v][s * MAX_LEAD + lead - 1]!;
        if (Number.isNaN(x)) continue;
        if (x < previous)
          throw new InvalidParameterError(
            'member_or_statistic',
            `${what}: ${v} at lead ${lead}: ${ensembleStatistics[s]} ${x} is below a lower percentile (${previous})`,
          );
        previous = x;
      }
    }
  return f;
}
