// Validation of query arguments against the catalogue and the store, with errors that name the bad value.
import {
  type DatasetName,
  datasetNames,
  findReservoirVariable,
  findStationVariable,
  reservoirDatasets,
  stationVariableNames,
  type UnitName,
  type UnitSystem,
  unitSystems,
} from '../catalogue.js';
import { clip } from '../dates.js';
import { InvalidParameterError, NotFoundError } from '../errors.js';
import { didYouMean } from '../suggest.js';

/** A requested variable, resolved: its wire key and where its values come from. */
export interface ResolvedVariable {
  name: string;
  dataset: DatasetName | null; // null for station variables
  unit: UnitName;
  key: string; // `<name> (<unit label>)` in the requested unit system
  factor: number; // the conversion from the stored metric value into the requested unit system
  offset: number;
}

/** A variable checked against the catalogue, before the unit system gives it a key and a conversion. */
export type CheckedVariable = Omit<ResolvedVariable, 'key' | 'factor' | 'offset'>;

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
  const list = nonEmpty(datasets, 'datasets') ?? datasetNames;
  for (const d of list) {
    if (!Object.hasOwn(reservoirDatasets, d)) {
      throw new InvalidParameterError(
        'datasets',
        `unknown dataset ${JSON.stringify(clip(d))}${didYouMean(d, datasetNames)}; allowed: ${allowed(datasetNames)}`,
        'not-allowed',
        d,
      );
    }
  }
  return unique(list) as DatasetName[];
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
export function resolveStationVariables(variables: readonly string[] | undefined, fallback: readonly string[]): CheckedVariable[] {
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

/** Checks names against those the store holds; unknown names are a NotFoundError naming each of them. */
export function resolveNames(
  names: readonly string[] | undefined,
  fallback: readonly string[],
  known: ReadonlySet<string>,
  parameter: string,
  kind: string,
): string[] {
  const list = unique(nonEmpty(names, parameter) ?? fallback);
  const missing = list.filter((n) => !known.has(n));
  if (missing.length > 0) {
    const shown = missing.slice(0, MAX_LISTED).map((n) => `${JSON.stringify(clip(n))}${didYouMean(n, known)}`);
    throw new NotFoundError(
      parameter,
      missing,
      `${kind} not found: ${shown.join(', ')}${missing.length > MAX_LISTED ? ` and ${missing.length - MAX_LISTED} more` : ''}`,
    );
  }
  return list.sort();
}

/** Checks metadata attributes asked for with also_return. */
export function resolveAttributes(attributes: readonly string[] | undefined, available: readonly string[]): string[] {
  const list = attributes?.filter((a) => a !== '') ?? [];
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
