// One query's options, checked once against the catalogue and a snapshot into one typed plan: what every timeseries
// path (range, date, aggregates, normals) reads and emits. The store's query methods are one-liners over it. Each
// check's error names the bad value and suggests the fix; the checks come first, then the plans built of them.

import {
  ALL_NAMES,
  type DatasetName,
  datasetNames,
  defaults,
  findReservoirVariable,
  findStationVariable,
  reservoirDatasets,
  stationVariableNames,
  type UnitSystem,
  unitSystems,
  variableKey,
} from '../catalogue.js';
import { clip, parseDay, resolveDay, resolveRange, yearOfDay } from '../dates.js';
import { InvalidParameterError, NotFoundError } from '../errors.js';
import { dayAttributesOf, type FlagColumn, reservoirDayAttributes, stationDayAttributes, withDayAttributes } from '../flags.js';
import type { CheckedVariable, ResolvedVariable } from '../format/variable.js';
import { type MetadataTable, pickAttributes } from '../store/metadata.js';
import { heldBy, type Snapshot } from '../store/open-snapshot.js';
import { didYouMean, didYouMeanName } from '../suggest.js';
import type { ReservoirDateQuery, ReservoirRangeQuery, StationDateQuery, StationRangeQuery, WireRecord } from '../types.js';
import { conversionOf } from '../units.js';
import { firstReservoirDay, latestReservoirDay, latestStationDay } from './latest.js';

// The checks of the options, each against the catalogue or the names the store holds

const MAX_LISTED = 12;

/** Describes allowed values compactly in an error message. */
export function allowed(values: readonly string[]): string {
  const shown = values.slice(0, MAX_LISTED).join(', ');
  return values.length > MAX_LISTED ? `${shown}, ... (${values.length} in all)` : shown;
}

/** Checks the unit system: a query's `units` is any string until here, a UnitSystem after. */
export function resolveUnits(units: string | undefined): UnitSystem {
  const value = units ?? 'metric';
  const system = unitSystems.find((s) => s === value);
  if (system === undefined) {
    throw new InvalidParameterError(
      'units',
      `units must be one of ${unitSystems.join(', ')}; got ${JSON.stringify(clip(value))}${didYouMean(value, unitSystems)}`,
      'not-allowed',
      value,
    );
  }
  return system;
}

/** Checks dataset names; the default is all four. */
export function resolveDatasets(datasets: readonly string[] | undefined): DatasetName[] {
  return resolveAllowed(datasets, datasetNames, datasetNames, 'datasets', 'dataset');
}

/** Checks a list against the values allowed (an unknown one is named, with the nearest allowed); the default is `fallback`. */
export function resolveAllowed<T extends string>(
  list: readonly string[] | undefined,
  fallback: readonly T[],
  allowedValues: readonly T[],
  parameter: string,
  what: string,
): T[] {
  const checked = unique(nonEmpty(list, parameter) ?? fallback);
  for (const v of checked) {
    if (!(allowedValues as readonly string[]).includes(v)) {
      throw new InvalidParameterError(
        parameter,
        `unknown ${what} ${JSON.stringify(clip(v))}${didYouMean(v, allowedValues)}; allowed: ${allowed(allowedValues)}`,
        'not-allowed',
        v,
      );
    }
  }
  return checked as T[];
}

/** Checks reservoir variables against the requested datasets; the default is every variable of those datasets. */
export function resolveReservoirVariables(variables: readonly string[] | undefined, datasets: readonly DatasetName[]): CheckedVariable[] {
  const held = datasets.flatMap((d) => Object.keys(reservoirDatasets[d].variables));
  const list = nonEmpty(variables, 'variables') ?? held;
  return unique(list).map((name) => {
    const entry = findReservoirVariable(name);
    if (!entry) {
      throw new InvalidParameterError(
        'variables',
        `unknown variable ${JSON.stringify(clip(name))}${didYouMean(name, reservoirVariableNames())}; variables of ${datasets.join(', ')}: ${allowed(held)}`,
        'not-allowed',
        name,
      );
    }
    if (!datasets.includes(entry.dataset)) {
      throw new InvalidParameterError(
        'variables',
        `variable ${name} belongs to dataset ${entry.dataset}, which is not among the requested datasets (${datasets.join(', ')}); add it to datasets or choose from: ${allowed(held)}`,
        'malformed',
        name,
      );
    }
    return { name, dataset: entry.dataset, unit: entry.spec.unit };
  });
}

/** Checks station variables; the default is the given fallback (what the requested stations hold). */
function resolveStationVariables(variables: readonly string[] | undefined, fallback: readonly string[]): CheckedVariable[] {
  const list = nonEmpty(variables, 'variables') ?? fallback;
  return unique(list).map((name) => {
    const spec = findStationVariable(name);
    if (!spec)
      throw new InvalidParameterError(
        'variables',
        `unknown station variable ${JSON.stringify(clip(name))}${didYouMean(name, stationVariableNames)}; allowed: ${allowed(stationVariableNames)}`,
        'not-allowed',
        name,
      );
    return { name, dataset: null, unit: spec.unit };
  });
}

/** The names of the other kind, to tell a station asked for as a reservoir (or the reverse) that it is one. */
interface OtherKind {
  kind: string; // 'station' or 'reservoir'
  known: ReadonlySet<string>;
}

/** The other kind of a snapshot's names: stations for reservoirs, reservoirs for stations. */
export function otherKind(s: Pick<Snapshot, 'reservoirNames' | 'stationNames'>, kind: 'reservoir' | 'station'): OtherKind {
  return kind === 'reservoir' ? { kind: 'station', known: s.stationNames } : { kind: 'reservoir', known: s.reservoirNames };
}

/**
 * Checks names against those the store holds; unknown names are a NotFoundError naming each of them, with the names
 * it may mean (nearest by edits, or holding it: MEAD -> LAKE MEAD) and whether it is of the other kind.
 */
export function resolveNames(
  names: readonly string[] | undefined,
  fallback: readonly string[],
  known: ReadonlySet<string>,
  parameter: string,
  kind: string,
  other?: OtherKind,
): string[] {
  const list = unique(nonEmpty(names, parameter) ?? fallback);
  const missing = list.filter((n) => !known.has(n));
  if (missing.length > 0) {
    const elsewhere = other === undefined ? [] : missing.filter((n) => other.known.has(n));
    const shown = missing.slice(0, MAX_LISTED).map((n) => {
      const hint = didYouMeanName(n, known);
      if (!elsewhere.includes(n)) return `${JSON.stringify(clip(n))}${hint}`;
      return `${JSON.stringify(clip(n))} (it is a ${other!.kind}, not a ${kind}${hint === '' ? '' : `; ${hint.slice(2, -1)}`})`;
    });
    throw new NotFoundError(
      parameter,
      missing,
      `${kind} not found: ${shown.join(', ')}${missing.length > MAX_LISTED ? ` and ${missing.length - MAX_LISTED} more` : ''}`,
      elsewhere,
    );
  }
  return list.sort();
}

/** Checks metadata attributes asked for with also_return. */
export function resolveAttributes(attributes: readonly string[] | undefined, allowedList: readonly string[] | (() => readonly string[])): string[] {
  const list = attributes?.filter((a) => a !== '') ?? [];
  if (list.length === 0) return list; // the metadata's attributes not looked up: most answers ask none
  const available = typeof allowedList === 'function' ? allowedList() : allowedList;
  for (const a of list) {
    if (!available.includes(a)) {
      throw new InvalidParameterError(
        'also_return',
        `unknown metadata attribute ${JSON.stringify(clip(a))}${didYouMean(a, available)}; allowed: ${allowed(available)}`,
        'not-allowed',
        a,
      );
    }
  }
  return unique(list);
}

function nonEmpty(list: readonly string[] | undefined, parameter: string): readonly string[] | undefined {
  if (list === undefined) return undefined;
  if (list.length === 0 || list.every((v) => v === '')) {
    throw new InvalidParameterError(parameter, `${parameter} is empty; give at least one value or leave it out for the default`, 'empty', list);
  }
  return list.filter((v) => v !== '');
}

function reservoirVariableNames(): string[] {
  return datasetNames.flatMap((d) => Object.keys(reservoirDatasets[d].variables));
}

function unique<T>(list: readonly T[]): T[] {
  return [...new Set(list)];
}

// The plan

/** Attributes attached to every record of a name (also_return); empty when none were asked for. */
type Attach = (name: string) => WireRecord;

/** Adds wire keys and conversions to resolved variables for a unit system: the unit table read once per query. */
export function withKeys(variables: readonly CheckedVariable[], system: UnitSystem): ResolvedVariable[] {
  // one object literal of one shape (spreads made each variable a dictionary-like copy: a tenth of a small answer's time)
  return variables.map((v) => {
    const { factor, offset } = conversionOf(v.unit, system);
    return { name: v.name, dataset: v.dataset, unit: v.unit, key: variableKey(v.name, v.unit, system), factor, offset };
  });
}

/** The columns of the records, in order: what a CSV header shows. */
function recordColumns(nameKey: string, variables: readonly ResolvedVariable[], attributes: readonly string[]): string[] {
  return [nameKey, 'start_date', 'end_date', ...variables.map((v) => v.key), ...attributes.filter((a) => a !== nameKey)];
}

/** Names and columns of a query, checked in the order the errors are reported: units, names, datasets, variables. */
export interface Selection {
  nameKey: 'RES_NAME' | 'STA_NAME';
  names: string[]; // sorted, unique; for a query on one date, every name the store holds
  columns: ResolvedVariable[]; // wire key, unit and dataset of each variable, in the order asked
  system: UnitSystem;
  metadata: MetadataTable;
  latest: () => number | undefined; // the last day held for these columns (reservoirs) or names (stations)
}

/** A timeseries query made concrete: its selection, its day range (one day on a date) and what each record carries. */
export interface Plan extends Selection {
  startDay: number;
  endDay: number;
  attributes: string[]; // also_return keys, metadata and day flags
  flags: readonly FlagColumn[]; // the day flags among the attributes, read with the values
  attach: Attach; // a name's metadata attributes
  header: string[]; // the records' keys in order (a CSV header)
}

type Selecting = Pick<ReservoirRangeQuery, 'names' | 'datasets' | 'variables' | 'units'>;

/** Whether `ALL` (stations also `ALL_STATIONS`) alone names every held name; never when a name is that word itself. */
function asksAll(names: readonly string[] | undefined, known: ReadonlySet<string>, words: readonly string[]): boolean {
  return names?.length === 1 && words.includes(names[0]!) && !known.has(names[0]!);
}

/** RES_NAMES checked against the store: the names asked (the API's default when none), or every reservoir for ALL. */
export function resolveReservoirNames(s: Snapshot, names: readonly string[] | undefined): string[] {
  return asksAll(names, s.reservoirNames, [ALL_NAMES])
    ? s.manifest.reservoirs.names
    : resolveNames(names, defaults.RES_NAMES, s.reservoirNames, 'RES_NAMES', 'reservoir', otherKind(s, 'reservoir'));
}

/** Reservoirs and their variables; `every` (a query on one date) takes every held name instead of `names`. */
export function selectReservoirs(s: Snapshot, query: Selecting, every = false): Selection {
  const system = resolveUnits(query.units);
  const names = every ? s.manifest.reservoirs.names : resolveReservoirNames(s, query.names);
  const columns = withKeys(resolveReservoirVariables(query.variables, resolveDatasets(query.datasets)), system);
  const used = [...new Set(columns.map((v) => v.dataset!))];
  return { nameKey: 'RES_NAME', names, columns, system, metadata: s.reservoirs, latest: () => latestReservoirDay(s.manifest, used) };
}

/** Stations and their variables (by default those the stations hold); `every` as for reservoirs. */
export function selectStations(s: Snapshot, query: Omit<Selecting, 'datasets'>, every = false): Selection {
  const system = resolveUnits(query.units);
  const all = every || asksAll(query.names, s.stationNames, [ALL_NAMES, defaults.ALL_STATIONS]);
  const names = all
    ? s.manifest.stations.names
    : resolveNames(query.names, defaults.STA_NAMES, s.stationNames, 'STA_NAMES', 'station', otherKind(s, 'station'));
  const held = all ? s.stationVariablesAll : heldBy(s.stationVariablesHeld, names);
  const columns = withKeys(resolveStationVariables(query.variables, held), system);
  return { nameKey: 'STA_NAME', names, columns, system, metadata: s.stations, latest: () => latestStationDay(s.manifest, names) };
}

export const planReservoirRange = (s: Snapshot, query: ReservoirRangeQuery): Plan => overRange(selectReservoirs(s, query), query, reservoirDayAttributes);
export const planReservoirDate = (s: Snapshot, query: ReservoirDateQuery): Plan => onDate(selectReservoirs(s, query, true), query, reservoirDayAttributes);
export const planStationRange = (s: Snapshot, query: StationRangeQuery): Plan => overRange(selectStations(s, query), query, stationDayAttributes);
export const planStationDate = (s: Snapshot, query: StationDateQuery): Plan => onDate(selectStations(s, query, true), query, stationDayAttributes);

function overRange(selection: Selection, query: { start?: string; end?: string; alsoReturn?: readonly string[] }, dayAttributes: readonly FlagColumn[]): Plan {
  const { startDay, endDay } = resolveRange(query.start ?? defaults.start_date, query.end ?? defaults.end_date, selection.latest);
  return withAttributes(selection, startDay, endDay, query.alsoReturn, dayAttributes);
}

function onDate(selection: Selection, query: { date?: string; alsoReturn?: readonly string[] }, dayAttributes: readonly FlagColumn[]): Plan {
  const day = resolveDay(query.date ?? defaults.date, 'date', selection.latest);
  return withAttributes(selection, day, day, query.alsoReturn, dayAttributes);
}

function withAttributes(
  selection: Selection,
  startDay: number,
  endDay: number,
  alsoReturn: readonly string[] | undefined,
  dayAttributes: readonly FlagColumn[],
): Plan {
  const { metadata } = selection;
  const attributes = resolveAttributes(alsoReturn, () => withDayAttributes(metadata.attributes, dayAttributes));
  return {
    ...selection,
    startDay,
    endDay,
    attributes,
    flags: dayAttributesOf(attributes, dayAttributes),
    attach: attributes.length === 0 ? () => ({}) : (name) => pickAttributes(metadata, name, attributes), // no metadata looked up when none was asked for
    header: recordColumns(selection.nameKey, selection.columns, attributes),
  };
}

/**
 * About how many stored rows answering the plan decodes, known before anything is read: the rows of the partitions its
 * dates touch, in the share its names hold (files are read by row group, which spans days, so a date still costs its
 * names' whole year). A server can admit answers that read millions of rows a few at a time.
 */
export function estimateReadRows(s: Snapshot, plan: Pick<Plan, 'nameKey' | 'names' | 'columns' | 'startDay' | 'endDay'>): number {
  if (plan.nameKey === 'STA_NAME') return plan.names.reduce((n, name) => n + (s.manifest.stations.partitions[name]?.rows ?? 0), 0);
  const share = plan.names.length / Math.max(1, s.reservoirCount);
  const [firstYear, lastYear] = [yearOfDay(plan.startDay), yearOfDay(plan.endDay)];
  let rows = 0;
  for (const dataset of new Set(plan.columns.map((c) => c.dataset!))) {
    for (const [year, partition] of s.partitionsByYear.get(dataset) ?? []) {
      if (year >= firstYear && year <= lastYear) for (const file of partition.files) rows += file.rows;
    }
  }
  return Math.round(rows * share);
}

/**
 * The most records answering the plan can give, known before anything is read: a record per name and day held, so
 * each name's days within the range and within what the store holds (a station's own first and last day; a
 * reservoir's, the asked datasets' first and last). An answer built whole is refused up front past its bound.
 */
export function boundRecords(s: Snapshot, plan: Pick<Plan, 'nameKey' | 'names' | 'columns' | 'startDay' | 'endDay'>): number {
  const overlap = (first: number | undefined, last: number | undefined) =>
    first === undefined || last === undefined ? 0 : Math.max(0, Math.min(plan.endDay, last) - Math.max(plan.startDay, first) + 1);
  if (plan.nameKey === 'STA_NAME') {
    let records = 0;
    for (const name of plan.names) {
      const p = s.manifest.stations.partitions[name];
      if (p?.start) records += overlap(parseDay(p.start, 'date'), parseDay(p.end, 'date'));
    }
    return records;
  }
  const datasets = [...new Set(plan.columns.map((c) => c.dataset!))];
  if (datasets.length === 0) return plan.names.length * (plan.endDay - plan.startDay + 1);
  return plan.names.length * overlap(firstReservoirDay(s.manifest, datasets), latestReservoirDay(s.manifest, datasets));
}
