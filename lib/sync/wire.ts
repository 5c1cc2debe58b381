// Every parameter of every query the API takes, once: its wire name, the library option it carries, one value or a
// list, which per-request limit a list counts against, the default the library applies, the allowed values where the
// set is closed, and a line of description. The server reads its parameters from here and generates /openapi.json
// from it; the remote client sends from it. Defaults and allowed values come from the catalogue and the query
// modules, so nothing here is written twice.
import {
  ALL_NAMES,
  attributeUnit,
  type DatasetName,
  datasetNames,
  defaults,
  outputFormats,
  reservoirAttributes,
  stationAttributes,
  unitSystems,
} from '../catalogue.js';
import type { InvalidReason } from '../errors.js';
import { reservoirDayAttributes, stationDayAttributes, withDayAttributes } from '../flags.js';
import { statistics } from '../query/aggregate.js';
import { normalPeriods } from '../query/normals.js';
import type { ReservoirAggregateQuery, ReservoirNormalsQuery, StationAggregateQuery, StationNormalsQuery } from '../query/summaries.js';
import type { ReservoirDateQuery, StationDateQuery } from '../types.js';

/** Every option a query takes, under the library's names (the listings' arguments included). */
type AnyOptions = ReservoirAggregateQuery &
  StationAggregateQuery &
  ReservoirNormalsQuery &
  StationNormalsQuery &
  ReservoirDateQuery &
  StationDateQuery & { dataset?: DatasetName; variable?: string; format?: string };
export type WireOption = keyof AnyOptions;

/** One parameter of the wire and the library option it carries. */
export interface WireParameter {
  name: string; // as it travels; several entries share one (STA_NAMES has three defaults)
  option: WireOption;
  shape: 'one' | 'list'; // a list travels comma-separated
  limit?: 'names' | 'values'; // which per-request limit a list counts against (the server's configuration sets both)
  default?: string | readonly string[]; // what the library uses when the parameter is left out
  values?: readonly string[]; // the allowed values, where the set is closed (for a list: of each entry)
  description: string;
}

const joined = (values: readonly string[]) => values.join(', ');
const reservoirAlso = withDayAttributes(reservoirAttributes.slice(1), reservoirDayAttributes);
const stationAlso = withDayAttributes(stationAttributes.slice(1), stationDayAttributes);
// an aggregate or a normal spans many days and so has no one status (lib/query/summaries.ts refuses it)
const withoutStatus = (attributes: readonly string[]) => attributes.filter((a) => a !== 'status');
const staNames = (fallback: string | readonly string[], more = ''): WireParameter => ({
  name: 'STA_NAMES',
  option: 'names',
  shape: 'list',
  limit: 'names',
  default: fallback,
  description: `One or more station names (comma-separated)${more}; see /info/list_STA_NAMES`,
});
const format = (values: readonly string[], description: string): WireParameter => ({
  name: 'output_format',
  option: 'format',
  shape: 'one',
  default: defaults.output_format,
  values,
  description,
});
const alsoReturn = (values: readonly string[], note: string): WireParameter => ({
  name: 'also_return',
  option: 'alsoReturn',
  shape: 'list',
  limit: 'values',
  values,
  description: `Attributes added to every record (comma-separated): ${joined(values)}. ${note}${note.endsWith('.') ? '' : '.'} ${attributeUnitsNote(values)}`,
});
// the units of the numeric attributes, which stay metric whatever units says
const attributeUnitsNote = (values: readonly string[]) =>
  `Units (never converted): ${values
    .filter((v) => attributeUnit(v) !== undefined)
    .map((v) => `${v} ${attributeUnit(v)}`)
    .join(', ')}.`;

export const wireParameters = {
  RES_NAMES: {
    name: 'RES_NAMES',
    option: 'names',
    shape: 'list',
    limit: 'names',
    default: defaults.RES_NAMES,
    description: `One or more reservoir names (comma-separated); see /info/list_RES_NAMES. ${ALL_NAMES} alone: every reservoir (a large answer, streamed)`,
  },
  STA_NAMES: staNames(defaults.STA_NAMES, `, or ${ALL_NAMES} (or ${defaults.ALL_STATIONS}) alone for every station`),
  metadataStaNames: staNames(defaults.STA_NAMES_METADATA),
  staNamesOrAll: staNames(defaults.ALL_STATIONS, `, or ${defaults.ALL_STATIONS}`),
  datasets: {
    name: 'datasets',
    option: 'datasets',
    shape: 'list',
    limit: 'values',
    default: defaults.datasets,
    values: datasetNames,
    description: `One or more datasets (comma-separated): ${joined(datasetNames)}`,
  },
  variables: {
    name: 'variables',
    option: 'variables',
    shape: 'list',
    limit: 'values',
    default: defaults.variables,
    description: 'One or more variables (comma-separated) of the chosen datasets; see /info/list_variables',
  },
  // no default listed: the public service documents every station variable, but left out the library answers the
  // variables the stations hold (lib/query/plan.ts selectStations), so the description says that instead
  stationVariables: {
    name: 'variables',
    option: 'variables',
    shape: 'list',
    limit: 'values',
    description:
      'One or more station variables (comma-separated). Left out: the variables the requested stations hold (on a date path, that any station holds), as /info/list_stations_variables lists them; a variable none of them holds is not emitted',
  },
  units: {
    name: 'units',
    option: 'units',
    shape: 'one',
    default: defaults.units,
    values: unitSystems,
    description: `Units for returned data (${unitSystems.join(' or ')})`,
  },
  start_date: {
    name: 'start_date',
    option: 'start',
    shape: 'one',
    default: defaults.start_date,
    description:
      'Start date (yyyy-mm-dd), inclusive; or latest, or an ISO 8601 duration counted back from end_date (P30D: the 30 days ending with end_date; P1Y)',
  },
  end_date: {
    name: 'end_date',
    option: 'end',
    shape: 'one',
    default: defaults.end_date,
    description: 'End date (yyyy-mm-dd), inclusive; or latest: the last day held for the requested datasets or stations',
  },
  date: {
    name: 'date',
    option: 'date',
    shape: 'one',
    default: defaults.date,
    description: 'Date (yyyy-mm-dd), or latest: the last day held for the requested datasets or stations',
  },
  also_return: alsoReturn(reservoirAlso, "qflag is the day's quality flag (O, M, S, R), status the day's status (Early, Provisional, Final)"),
  stationAlsoReturn: alsoReturn(stationAlso, "status is the day's status (Early, Provisional, Final); qflag the station's"),
  summaryAlsoReturn: alsoReturn(
    withoutStatus(reservoirAlso),
    "qflag is the reservoir's quality flag; a period spans many days, so it has no one status (ask a daily path for status)",
  ),
  stationSummaryAlsoReturn: alsoReturn(withoutStatus(stationAlso), 'a period spans many days, so it has no one status (ask a daily path for status)'),
  as_of: {
    name: 'as_of',
    option: 'asOf',
    shape: 'one',
    description:
      'Answer from the data as published then: an ISO date (the end of that day, UTC) or date and time (YYYY-MM-DDTHH:MM:SSZ); see /info/list_snapshots',
  },
  statistic: {
    name: 'statistic',
    option: 'statistic',
    shape: 'one',
    values: statistics,
    description: 'Overrides how every variable aggregates (default: sum for depths and volumes, circular mean for directions, mean otherwise)',
  },
  compare_to: {
    name: 'compare_to',
    option: 'compareTo',
    shape: 'one',
    values: ['normal'],
    description: 'normal: adds "<key> pct_of_normal", 100 x the month\'s value / its normal mean over the base period',
  },
  base_start: {
    name: 'base_start',
    option: 'baseStart',
    shape: 'one',
    description: 'First day of the base period of normals (yyyy-mm-dd); default: the first day held',
  },
  base_end: {
    name: 'base_end',
    option: 'baseEnd',
    shape: 'one',
    default: 'latest',
    description: 'Last day of the base period of normals (yyyy-mm-dd or latest); default: the last day held',
  },
  period: {
    name: 'period',
    option: 'period',
    shape: 'one',
    default: normalPeriods[0],
    values: normalPeriods,
    description: 'month: statistics of monthly values by calendar month; day: of daily values by day of the year (MM-DD)',
  },
  dataset: {
    name: 'dataset',
    option: 'dataset',
    shape: 'one',
    default: defaults.dataset,
    values: datasetNames,
    description: `Dataset name (${joined(datasetNames)})`,
  },
  variable: { name: 'variable', option: 'variable', shape: 'one', default: defaults.variable, description: 'Variable name (see /info/list_variables)' },
  output_format: format(outputFormats.list, `Response format (${outputFormats.list.join(' or ')})`),
  placesFormat: format(outputFormats.places, 'Response format: json, csv or geojson (a FeatureCollection of Points, RFC 7946)'),
  seriesFormat: format(outputFormats.series, 'Response format: json, csv, parquet (an Apache Parquet file) or arrow (an Arrow IPC stream)'),
} as const satisfies Record<string, WireParameter>;

export type ParameterId = keyof typeof wireParameters;

/**
 * The parameters of each query, under the method names the store and the client share, in the order they are
 * documented and sent. The aggregate queries take compare_to, base_start and base_end on monthly intervals only
 * (monthlyOnly); the library explains a compare_to on any other.
 */
export const wireOperations = {
  reservoirTimeseries: ['RES_NAMES', 'datasets', 'variables', 'units', 'start_date', 'end_date', 'also_return', 'seriesFormat', 'as_of'],
  reservoirTimeseriesOnDate: ['datasets', 'variables', 'units', 'date', 'also_return', 'seriesFormat', 'as_of'],
  stationTimeseries: ['STA_NAMES', 'stationVariables', 'units', 'start_date', 'end_date', 'stationAlsoReturn', 'seriesFormat', 'as_of'],
  stationTimeseriesOnDate: ['stationVariables', 'units', 'date', 'stationAlsoReturn', 'seriesFormat', 'as_of'],
  reservoirAggregates: [
    'RES_NAMES',
    'datasets',
    'variables',
    'units',
    'start_date',
    'end_date',
    'statistic',
    'compare_to',
    'base_start',
    'base_end',
    'summaryAlsoReturn',
    'seriesFormat',
    'as_of',
  ],
  stationAggregates: [
    'STA_NAMES',
    'stationVariables',
    'units',
    'start_date',
    'end_date',
    'statistic',
    'compare_to',
    'base_start',
    'base_end',
    'stationSummaryAlsoReturn',
    'seriesFormat',
    'as_of',
  ],
  reservoirNormals: [
    'RES_NAMES',
    'datasets',
    'variables',
    'units',
    'base_start',
    'base_end',
    'period',
    'statistic',
    'summaryAlsoReturn',
    'seriesFormat',
    'as_of',
  ],
  stationNormals: [
    'STA_NAMES',
    'stationVariables',
    'units',
    'base_start',
    'base_end',
    'period',
    'statistic',
    'stationSummaryAlsoReturn',
    'seriesFormat',
    'as_of',
  ],
  listDatasets: ['output_format'],
  listVariables: ['output_format', 'dataset'],
  listDates: ['output_format', 'dataset', 'variable'],
  listReservoirNames: ['placesFormat'],
  listStationNames: ['placesFormat'],
  listStationVariables: ['output_format', 'staNamesOrAll'],
  listStationDates: ['output_format', 'staNamesOrAll'],
  reservoirMetadata: ['placesFormat', 'RES_NAMES'],
  stationMetadata: ['placesFormat', 'metadataStaNames'],
  listSnapshots: ['output_format'],
  about: ['output_format'],
} as const satisfies Record<string, readonly ParameterId[]>;

export type WireOperation = keyof typeof wireOperations;

/** The aggregate parameters of monthly intervals only. */
export const monthlyOnly: readonly ParameterId[] = ['compare_to', 'base_start', 'base_end'];

/** The parameter entries of a query. */
export function parametersOf(operation: WireOperation): WireParameter[] {
  return wireOperations[operation].map((id) => wireParameters[id]);
}

/** The wire's name of each reason a value is refused: the "type" of a FastAPI validation error. */
export const validationTypes: Record<InvalidReason, string> = {
  'not-allowed': 'enum',
  empty: 'missing',
  'not-a-date': 'date_from_datetime_parsing',
  'too-many': 'too_long',
  malformed: 'value_error',
};

/** A query's options under their wire names (undefined where left out), for the remote client. */
export function toWire(query: Partial<Record<WireOption, unknown>>, operation: WireOperation): Record<string, string | readonly string[] | undefined> {
  return Object.fromEntries(parametersOf(operation).map((p) => [p.name, query[p.option] as string | readonly string[] | undefined]));
}

/**
 * The options of a query from its wire values (`read` gives a list split, a single value as it is), for the server.
 * Values are passed on unchecked: the library validates every option, units included, before reading anything.
 */
export function fromWire<Q>(parameters: readonly WireParameter[], read: (name: string, shape: 'one' | 'list') => string | string[] | undefined): Q {
  return Object.fromEntries(parameters.map((p) => [p.option, read(p.name, p.shape)])) as Q;
}
