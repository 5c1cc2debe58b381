// Input records -> staged metric values, or the reason a record is rejected. Wide records as the public service
// exports them (`"NetE (mm)"` keys, metric or English by label), long rows, and metadata rows.
import {
  type DatasetName,
  datasetNames,
  findReservoirVariable,
  findStationVariable,
  reservoirDatasets,
  stationVariableNames,
  type UnitName,
  type UnitSystem,
  units,
} from '../catalogue.js';
import { clip, parseDay } from '../dates.js';
import { encodeFlags, type FlagColumn, flagColumns, isFlag, reservoirDayAttributes, stationDayAttributes } from '../flags.js';
import type { MetadataRow } from '../types.js';
import { toMetric } from '../units.js';
import type { StagedPartition, Staging } from './stage.js';

/** What a file holds, told from its CSV header or its first JSON object. */
export type FileKind = 'timeseries' | 'long' | 'reservoir-metadata' | 'station-metadata';

/** The columns of a plain long CSV; values in metric units; dataset `stations` for station rows. */
export const longColumns = ['name', 'dataset', 'variable', 'date', 'value'] as const;
const STATIONS_DATASET = 'stations';

/** The kind of a file from the keys of its first record, or undefined when they fit none. */
export function classifyKeys(keys: readonly string[]): FileKind | undefined {
  const has = (k: string) => keys.includes(k);
  if (longColumns.every(has)) return 'long';
  if (has('start_date') && (has('RES_NAME') || has('STA_NAME'))) return 'timeseries';
  if (has('STA_NAME')) return 'station-metadata';
  if (has('RES_NAME')) return 'reservoir-metadata';
  return undefined;
}

/** Names that rows may refer to: those of the store plus those of the metadata being ingested. */
export interface KnownNames {
  reservoirs: ReadonlySet<string>;
  stations: ReadonlySet<string>;
}

type Column =
  | { type: 'variable'; dataset: DatasetName | null; index: number; unit: UnitName; system: UnitSystem }
  | { type: 'flag'; column: FlagColumn }
  | { type: 'skip' }
  | { type: 'bad'; reason: string };

const KEY = /^([^()]+) \(([^()]+)\)$/;
const indexOf = new Map<string, number>([
  ...datasetNames.flatMap((d) => Object.keys(reservoirDatasets[d].variables).map((v, i) => [`r:${v}`, i] as [string, number])),
  ...stationVariableNames.map((v, i) => [`s:${v}`, i] as [string, number]),
]);

/** Reads wide records, remembering what each column key means. */
export class WideReader {
  private readonly columns = new Map<string, Column>();

  constructor(private readonly known: KnownNames) {}

  /** Stages one wide record; returns why it is rejected (then nothing of it is staged). */
  stage(staging: Staging, entries: readonly (readonly [string, unknown])[]): string | undefined {
    let nameKey: 'RES_NAME' | 'STA_NAME' | undefined;
    let name: unknown;
    let start: unknown;
    let end: unknown;
    for (const [k, v] of entries) {
      if (k === 'STA_NAME') [nameKey, name] = ['STA_NAME', v];
      else if (k === 'RES_NAME' && nameKey !== 'STA_NAME') [nameKey, name] = ['RES_NAME', v];
      else if (k === 'start_date') start = v;
      else if (k === 'end_date') end = v;
    }
    if (!nameKey) return 'the record has neither RES_NAME nor STA_NAME';
    const station = nameKey === 'STA_NAME';
    if (typeof name !== 'string' || name === '') return `${nameKey} is empty or not text`;
    if (!(station ? this.known.stations : this.known.reservoirs).has(name)) return unknownName(station, name);
    if (typeof start !== 'string') return 'start_date is missing';
    const day = dayOf(start, 'start_date');
    if (typeof day === 'string') return day;
    if (end !== undefined && end !== null && end !== '' && end !== start) {
      return `start_date ${clip(String(start))} and end_date ${clip(String(end))} differ: only daily records can be ingested`;
    }
    const sets: [DatasetName | null, number, number][] = [];
    const flags: [FlagColumn, number][] = []; // per-day flags: they go with each dataset the record gives values of
    for (const [key, raw] of entries) {
      const column = this.column(key, station);
      if (column.type === 'skip') continue;
      if (column.type === 'bad') return column.reason;
      if (column.type === 'flag') {
        if (raw === null || raw === undefined || raw === '') continue;
        if (!isFlag(column.column, raw))
          return `${column.column} ${JSON.stringify(clip(String(raw), 40))} is not one of ${flagColumns[column.column].join(', ')}`;
        flags.push([column.column, encodeFlags(column.column, [raw as string])[0]!]);
        continue;
      }
      const value = numberOf(raw);
      if (value === undefined) return `non-numeric value ${JSON.stringify(clip(String(raw), 40))} in column "${key}"`;
      const metric = toMetric(value, column.unit, column.system);
      if (metric === Infinity || metric === -Infinity)
        return `value ${JSON.stringify(clip(String(raw), 40))} in column "${key}" is beyond the range of a number`;
      sets.push([column.dataset, column.index, metric]);
    }
    // gaps of a dataset create its row only when the whole record is gaps: an export over all datasets has
    // null columns for the datasets a reservoir lacks, which must not appear in the store
    const withValues = new Set(sets.filter(([, , v]) => v === v).map(([d]) => d));
    const partitions = new Map<DatasetName | null, StagedPartition>();
    for (const [dataset, index, value] of sets) {
      let partition = partitions.get(dataset);
      if (!partition) partitions.set(dataset, (partition = dataset ? staging.reservoir(dataset, day) : staging.station(name)));
      partition.set(name, day, index, value, withValues.size === 0 || withValues.has(dataset));
    }
    for (const partition of partitions.values()) for (const [column, code] of flags) partition.set(name, day, partition.variables.indexOf(column), code, false);
    staging.records++;
    return undefined;
  }

  /** The first problem with the columns of a CSV header (a bad column would reject every row), or undefined. */
  checkKeys(keys: readonly string[]): string | undefined {
    const station = keys.includes('STA_NAME');
    for (const key of keys) {
      const column = this.column(key, station);
      if (column.type === 'bad') return column.reason;
    }
    return undefined;
  }

  private column(key: string, station: boolean): Column {
    const cacheKey = `${station ? 's' : 'r'}:${key}`;
    let column = this.columns.get(cacheKey);
    if (!column) this.columns.set(cacheKey, (column = resolveColumn(key, station)));
    return column;
  }
}

function resolveColumn(key: string, station: boolean): Column {
  if (key === 'RES_NAME' || key === 'STA_NAME' || key === 'start_date' || key === 'end_date') return { type: 'skip' };
  if ((station ? stationDayAttributes : reservoirDayAttributes).includes(key as FlagColumn)) return { type: 'flag', column: key as FlagColumn };
  const match = KEY.exec(key);
  const kind = station ? 'station' : 'reservoir';
  if (!match) {
    const entry = station ? findStationVariable(key) : findReservoirVariable(key)?.spec;
    // unlabelled keys are metadata attributes added by also_return, unless they name a variable
    if (!entry) return { type: 'skip' };
    return {
      type: 'bad',
      reason: `column "${key}" has no unit label; expected "${key} (${units[entry.unit].metric})" or "${key} (${units[entry.unit].english})"`,
    };
  }
  const [, variable, label] = match as unknown as [string, string, string];
  const found = station
    ? { dataset: null, unit: findStationVariable(variable)?.unit }
    : { dataset: findReservoirVariable(variable)?.dataset ?? null, unit: findReservoirVariable(variable)?.spec.unit };
  if (!found.unit) return { type: 'bad', reason: `unknown ${kind} variable "${clip(variable, 40)}" in column "${clip(key, 60)}"` };
  const { metric, english } = units[found.unit];
  const system: UnitSystem | undefined = label === metric ? 'metric' : label === english ? 'english' : undefined;
  if (!system) {
    const expected = metric === english ? metric : `${metric}, or ${english} for English units`;
    return { type: 'bad', reason: `unit label "${clip(label, 20)}" in column "${clip(key, 60)}" does not match variable ${variable} (${expected})` };
  }
  const index = indexOf.get(`${station ? 's' : 'r'}:${variable}`)!;
  return { type: 'variable', dataset: found.dataset, index, unit: found.unit, system };
}

/** Stages one row of a long CSV (`name,dataset,variable,date,value`, metric); returns why it is rejected. */
export function stageLongRow(staging: Staging, known: KnownNames, row: Record<(typeof longColumns)[number], string>): string | undefined {
  const { name, dataset, variable, date, value } = row;
  const station = dataset === STATIONS_DATASET;
  if (!station && !Object.hasOwn(reservoirDatasets, dataset)) {
    return `unknown dataset "${clip(dataset, 40)}"; allowed: ${datasetNames.join(', ')}, ${STATIONS_DATASET}`;
  }
  const index = indexOf.get(`${station ? 's' : 'r'}:${variable}`);
  if (index === undefined || (!station && findReservoirVariable(variable)?.dataset !== dataset)) {
    const elsewhere = station ? undefined : findReservoirVariable(variable)?.dataset;
    return `unknown variable "${clip(variable, 40)}" in dataset ${dataset}${elsewhere ? ` (it belongs to ${elsewhere})` : ''}`;
  }
  if (name === '') return 'name is empty';
  if (!(station ? known.stations : known.reservoirs).has(name)) return unknownName(station, name);
  const day = dayOf(date, 'date');
  if (typeof day === 'string') return day;
  const number = numberOf(value);
  if (number === undefined) return `non-numeric value ${JSON.stringify(clip(value, 40))}`;
  if (number === Infinity || number === -Infinity) return `value ${JSON.stringify(clip(value, 40))} is beyond the range of a number`;
  (station ? staging.station(name) : staging.reservoir(dataset as DatasetName, day)).set(name, day, index, number);
  staging.records++;
  return undefined;
}

/** A metadata row as the writer takes it, or why it is rejected; CSV text that reads as a number becomes one. */
export function metadataRow(entries: readonly (readonly [string, unknown])[], key: 'RES_NAME' | 'STA_NAME', fromCsv: boolean): MetadataRow | string {
  const row: MetadataRow = {};
  for (const [k, raw] of entries) {
    if (raw === null || raw === undefined || raw === '') row[k] = null;
    else if (typeof raw === 'number') row[k] = Number.isFinite(raw) ? raw : null;
    else if (typeof raw === 'boolean') row[k] = String(raw);
    else if (typeof raw !== 'string') return `attribute ${k} is not a plain value`;
    else if (fromCsv && k !== key && NUMBER.test(raw.trim())) {
      row[k] = Number(raw);
      if (!Number.isFinite(row[k])) return `attribute ${k} value ${JSON.stringify(clip(raw, 40))} is beyond the range of a number`;
    } else row[k] = raw;
  }
  const name = row[key];
  if (typeof name !== 'string' || name.trim() === '') return `${key} is missing or empty`;
  // the API's name lists are comma-separated and trimmed: a name it could never ask for is refused here, not listed forever
  if (name.includes(',')) return `${key} ${JSON.stringify(clip(name, 60))} holds a comma, which the API's ${key}S lists cannot carry`;
  if (name !== name.trim()) return `${key} ${JSON.stringify(clip(name, 60))} begins or ends with white space, which the API trims from names asked`;
  for (const [attribute, limit] of [
    ['LAT', 90],
    ['LON', 180],
  ] as const) {
    const v = row[attribute];
    if (v !== undefined && v !== null && (typeof v !== 'number' || Math.abs(v) > limit)) {
      return `${attribute} must be a number between -${limit} and ${limit}, got ${JSON.stringify(clip(String(v), 40))}`;
    }
  }
  return row;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const GAPS = new Set(['', 'NaN', 'nan', 'null', 'NA']);

/** A value as a number: NaN for a gap (null, empty), undefined when it is not a number at all. */
function numberOf(raw: unknown): number | undefined {
  if (raw === null || raw === undefined) return NaN;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (GAPS.has(text)) return NaN;
  return NUMBER.test(text) ? Number(text) : undefined;
}

// years a store can hold: daily estimates begin in the satellite era; 0050 or 9999 is a typing slip, not data
const FIRST_YEAR = 1900;
const LAST_YEAR = 2100;

function dayOf(text: string, parameter: string): number | string {
  try {
    const day = parseDay(text, parameter);
    const year = Number(text.slice(0, 4));
    if (year < FIRST_YEAR || year > LAST_YEAR)
      return `bad date: ${parameter} ${JSON.stringify(text)} is outside the years ${FIRST_YEAR}-${LAST_YEAR} a store holds`;
    return day;
  } catch (error) {
    return `bad date: ${(error as Error).message}`;
  }
}

function unknownName(station: boolean, name: string): string {
  const [kind, key] = station ? ['station', 'STA_NAME'] : ['reservoir', 'RES_NAME'];
  return `unknown ${kind} "${clip(name, 60)}": not in the store, and no metadata row with this ${key} is being ingested`;
}
