// Discovery answers: datasets, variables and date ranges, from the catalogue and the manifest.
import { type DatasetName, datasetNames, defaults, reservoirDatasets, type StationVariable, stationVariables, type UnitName, units } from '../catalogue.js';
import { clip } from '../dates.js';
import { InvalidParameterError } from '../errors.js';
import type { Manifest } from '../store/manifest.js';
import { didYouMean } from '../suggest.js';
import type { DateRange, VariableInfo } from '../types.js';
import { allowed } from './plan.js';

/** The datasets the store holds, in catalogue order. */
export function listDatasets(manifest: Manifest): string[] {
  return datasetNames.filter((d) => manifest.datasets[d]);
}

/** The variables of one dataset with their descriptions and unit labels. */
export function listVariables(manifest: Manifest, dataset: string = defaults.dataset): VariableInfo[] {
  const name = checkDataset(manifest, dataset);
  const specs: Record<string, { description: string; unit: UnitName }> = reservoirDatasets[name].variables;
  return Object.entries(specs).map(([api_name, spec]) => describe(api_name, spec, name));
}

/** The first and last date with data for a dataset variable. */
export function listDates(manifest: Manifest, dataset: string = defaults.dataset, variable: string = defaults.variable): DateRange[] {
  const name = checkDataset(manifest, dataset);
  const held = Object.keys(reservoirDatasets[name].variables);
  if (!held.includes(variable)) {
    throw new InvalidParameterError(
      'variable',
      `variable ${JSON.stringify(clip(variable))} is not in dataset ${name}${didYouMean(variable, held)}; allowed: ${allowed(held)}`,
      'not-allowed',
      variable,
    );
  }
  const partitions = manifest.datasets[name]!.partitions.filter((p) => p.files.length > 0);
  if (partitions.length === 0) return [];
  return [{ start_date: partitions[0]!.start, end_date: partitions[partitions.length - 1]!.end }];
}

/** The given station variables (catalogue names) as the info endpoints describe them. */
export function describeStationVariables(names: readonly string[]): VariableInfo[] {
  return names.map((name) => describe(name, stationVariables[name as StationVariable], 'stations'));
}

/** The first and last date with data over the given stations. */
export function listStationDates(manifest: Manifest, names: readonly string[]): DateRange[] {
  const partitions = names.map((n) => manifest.stations.partitions[n]).filter((p) => p && p.rows > 0);
  if (partitions.length === 0) return [];
  const starts = partitions.map((p) => p!.start).sort();
  const ends = partitions.map((p) => p!.end).sort();
  return [{ start_date: starts[0]!, end_date: ends[ends.length - 1]! }];
}

function checkDataset(manifest: Manifest, dataset: string): DatasetName {
  if (!Object.hasOwn(reservoirDatasets, dataset) || !manifest.datasets[dataset]) {
    throw new InvalidParameterError(
      'dataset',
      `unknown dataset ${JSON.stringify(clip(dataset))}${didYouMean(dataset, listDatasets(manifest))}; allowed: ${allowed(listDatasets(manifest))}`,
      'not-allowed',
      dataset,
    );
  }
  return dataset as DatasetName;
}

function describe(api_name: string, spec: { description: string; unit: UnitName }, dataset: string): VariableInfo {
  return { api_name, description: spec.description, dataset, units_metric: units[spec.unit].metric, units_english: units[spec.unit].english };
}
