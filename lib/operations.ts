// Every operation once: where it is asked (method and path), which library method answers it (the key), what kind of
// answer it gives, and its parameters, each with the name it travels under, the library option it carries, one value
// or a list, the per-request limit a list counts against, the default, the allowed values where the set is closed, the
// unit of a date or time, and whether the library or the server itself answers it. The option types are inferred from
// here (OptionsOf); the server's routes and /openapi.json, the remote client, the CLI's flags and the bench's targets
// are derived from it, and the library refuses an option no operation of its kind names. Defaults and allowed values
// come from the catalogue and the query modules, so nothing here is written twice.
import { ALL_NAMES, attributeUnit, datasetNames, defaults, outputFormats, reservoirAttributes, stationAttributes, unitSystems } from './catalogue.js';
import { InvalidParameterError } from './errors.js';
import { reservoirDayAttributes, stationDayAttributes, withDayAttributes } from './flags.js';
import { defaultStatistics, forecastAttributes, forecastVariables, MAX_LEAD, statisticValues } from './forecast-variables.js';
import { modelDatasets, modelVariables } from './model/run.js';
import { scenarioParameters } from './model/scenario.js';
import { statistics } from './query/aggregate.js';
import { normalPeriods } from './query/normals.js';
import { intervals } from './query/periods.js';
import { didYouMean } from './suggest.js';
import type { WireRecord } from './types.js';

/** One parameter of an operation and the library option it carries. */
export interface Parameter {
  readonly name: string; // as it travels; several entries share one (STA_NAMES has three defaults)
  readonly option: string; // the library's (and the client's) option, camelCase
  readonly kind: 'one' | 'list'; // a list travels comma-separated
  readonly in?: 'path'; // a segment of the path (`{interval}`) rather than a query parameter
  readonly limit?: 'names' | 'values'; // which per-request limit a list counts against (the server's configuration sets both)
  readonly default?: string | readonly string[]; // what applies when the parameter is left out
  readonly values?: readonly string[]; // the allowed values, where the set is closed (for a list: of each entry)
  readonly unit?: 'day' | 'time'; // a date (YYYY-MM-DD, or a Date object in the library) or a time (ISO 8601)
  readonly side: 'library' | 'server'; // the server's own (output_format, as_of) are answered before the library is called
  readonly description: string;
}

/** What an operation answers: records (streamed, in the series formats), a small list, or names and places (GeoJSON too). */
type AnswerKind = 'records' | 'list' | 'places';

/** One operation. */
interface Operation {
  readonly method: 'GET' | 'POST';
  readonly path: string; // `{name}` marks a path parameter
  readonly answer: AnswerKind;
  readonly parameters: readonly Parameter[];
}

const joined = (values: readonly string[]) => values.join(', ');
const reservoirAlso = withDayAttributes(reservoirAttributes.slice(1), reservoirDayAttributes);
const stationAlso = withDayAttributes(stationAttributes.slice(1), stationDayAttributes);
// an aggregate or a normal spans many days and so has no one status (lib/query/summaries.ts refuses it)
const withoutStatus = (attributes: readonly string[]) => attributes.filter((a) => a !== 'status');
const staNames = (fallback: string | readonly string[], more = '') =>
  ({
    name: 'STA_NAMES',
    option: 'names',
    kind: 'list',
    limit: 'names',
    default: fallback,
    side: 'library',
    description: `One or more station names (comma-separated)${more}; see /info/list_STA_NAMES`,
  }) as const;
const format = <const V extends readonly string[]>(values: V, description: string) =>
  ({ name: 'output_format', option: 'format', kind: 'one', default: defaults.output_format, values, side: 'server', description }) as const;
const alsoReturn = (values: readonly string[], note: string) =>
  ({
    name: 'also_return',
    option: 'alsoReturn',
    kind: 'list',
    limit: 'values',
    values,
    side: 'library',
    description: `Attributes added to every record (comma-separated): ${joined(values)}. ${note}${note.endsWith('.') ? '' : '.'} ${attributeUnitsNote(values)}`,
  }) as const;
// the units of the numeric attributes, which stay metric whatever units says
const attributeUnitsNote = (values: readonly string[]) =>
  `Units (never converted): ${values
    .filter((v) => attributeUnit(v) !== undefined)
    .map((v) => `${v} ${attributeUnit(v)}`)
    .join(', ')}.`;

// a what-if scenario's parameter, described from lib/model/scenario.ts's table
const scenario = <const N extends string, const O extends string>(name: N, option: O) => {
  const entry = scenarioParameters.find((q) => q.name === name)!;
  const range = `${'openMin' in entry ? 'above' : 'from'} ${entry.min} to ${entry.max}${entry.unit ? ` ${entry.unit}` : ''}`;
  return { name, option, kind: 'one', side: 'library', description: `Scenario: ${entry.description} (${range})` } as const;
};

/** Every parameter entry, by an id the operations list them by. */
export const parameters = {
  RES_NAMES: {
    name: 'RES_NAMES',
    option: 'names',
    kind: 'list',
    limit: 'names',
    default: defaults.RES_NAMES,
    side: 'library',
    description: `One or more reservoir names (comma-separated); see /info/list_RES_NAMES. ${ALL_NAMES} alone: every reservoir (a large answer, streamed)`,
  },
  STA_NAMES: staNames(defaults.STA_NAMES, `, or ${ALL_NAMES} (or ${defaults.ALL_STATIONS}) alone for every station`),
  metadataStaNames: staNames(defaults.STA_NAMES_METADATA),
  staNamesOrAll: staNames(defaults.ALL_STATIONS, `, or ${defaults.ALL_STATIONS}`),
  datasets: {
    name: 'datasets',
    option: 'datasets',
    kind: 'list',
    limit: 'values',
    default: defaults.datasets,
    values: datasetNames,
    side: 'library',
    description: `One or more datasets (comma-separated): ${joined(datasetNames)}`,
  },
  variables: {
    name: 'variables',
    option: 'variables',
    kind: 'list',
    limit: 'values',
    default: defaults.variables,
    side: 'library',
    description: 'One or more variables (comma-separated) of the chosen datasets; see /info/list_variables',
  },
  // no default listed: the public service documents every station variable, but left out the library answers the
  // variables the stations hold (lib/query/plan.ts selectStations), so the description says that instead
  stationVariables: {
    name: 'variables',
    option: 'variables',
    kind: 'list',
    limit: 'values',
    side: 'library',
    description:
      'One or more station variables (comma-separated). Left out: the variables the requested stations hold (on a date path, that any station holds), as /info/list_stations_variables lists them; a variable none of them holds is not emitted',
  },
  units: {
    name: 'units',
    option: 'units',
    kind: 'one',
    default: defaults.units,
    values: unitSystems,
    side: 'library',
    description: `Units for returned data (${unitSystems.join(' or ')})`,
  },
  start_date: {
    name: 'start_date',
    option: 'start',
    kind: 'one',
    default: defaults.start_date,
    unit: 'day',
    side: 'library',
    description:
      'Start date (yyyy-mm-dd), inclusive; or latest, or an ISO 8601 duration counted back from end_date (P30D: the 30 days ending with end_date; P1Y)',
  },
  end_date: {
    name: 'end_date',
    option: 'end',
    kind: 'one',
    default: defaults.end_date,
    unit: 'day',
    side: 'library',
    description: 'End date (yyyy-mm-dd), inclusive; or latest: the last day held for the requested datasets or stations',
  },
  date: {
    name: 'date',
    option: 'date',
    kind: 'one',
    default: defaults.date,
    unit: 'day',
    side: 'library',
    description: 'Date (yyyy-mm-dd), or latest: the last day held for the requested datasets or stations',
  },
  also_return: alsoReturn(
    reservoirAlso,
    "qflag is the day's quality flag (O, M, S, R), status the day's status (Early, Provisional, Final; Computed where evap's model made it)",
  ),
  stationAlsoReturn: alsoReturn(stationAlso, "status is the day's status (Early, Provisional, Final); qflag the station's"),
  summaryAlsoReturn: alsoReturn(
    withoutStatus(reservoirAlso),
    "qflag is the reservoir's quality flag; a period spans many days, so it has no one status (ask a daily path for status)",
  ),
  stationSummaryAlsoReturn: alsoReturn(withoutStatus(stationAlso), 'a period spans many days, so it has no one status (ask a daily path for status)'),
  // the server answers it from a view of the store as it was then; the library's array methods take it too
  since: {
    name: 'since',
    option: 'since',
    kind: 'one',
    side: 'library',
    description:
      'The snapshot to compare from: its id (a sequence number from /info/list_snapshots, or the `current` of an earlier answer), or a time (ISO date or date and time: the snapshot current then); left out, the oldest retained snapshot',
  },
  as_of: {
    name: 'as_of',
    option: 'asOf',
    kind: 'one',
    unit: 'time',
    side: 'server',
    description:
      'Answer from the data as published then: an ISO date (the end of that day, UTC) or date and time (YYYY-MM-DDTHH:MM:SSZ); see /info/list_snapshots',
  },
  // the server answers it from two views of the store; the library's array methods take it too (lib/query/modified-since.ts)
  modified_since: {
    name: 'modified_since',
    option: 'modifiedSince',
    kind: 'one',
    side: 'server',
    description:
      'Only the records whose values differ from those of a snapshot: its id (a sequence number from /info/list_snapshots or the `current` of /changes) or a time (ISO date or date and time: the snapshot current then). A record the snapshot did not hold counts as changed; a record removed since is not listed',
  },
  interval: {
    name: 'interval',
    option: 'interval',
    kind: 'one',
    in: 'path',
    default: intervals[0],
    values: intervals,
    side: 'library',
    description: 'monthly, annual or water-year (October to September, named by the year it ends in)',
  },
  statistic: {
    name: 'statistic',
    option: 'statistic',
    kind: 'one',
    values: statistics,
    side: 'library',
    description: 'Overrides how every variable aggregates (default: sum for depths and volumes, circular mean for directions, mean otherwise)',
  },
  compare_to: {
    name: 'compare_to',
    option: 'compareTo',
    kind: 'one',
    values: ['normal'],
    side: 'library',
    description: 'normal: adds "<key> pct_of_normal", 100 x the month\'s value / its normal mean over the base period',
  },
  base_start: {
    name: 'base_start',
    option: 'baseStart',
    kind: 'one',
    unit: 'day',
    side: 'library',
    description: 'First day of the base period of normals (yyyy-mm-dd); default: the first day held',
  },
  base_end: {
    name: 'base_end',
    option: 'baseEnd',
    kind: 'one',
    default: 'latest',
    unit: 'day',
    side: 'library',
    description: 'Last day of the base period of normals (yyyy-mm-dd or latest); default: the last day held',
  },
  period: {
    name: 'period',
    option: 'period',
    kind: 'one',
    default: normalPeriods[0],
    values: normalPeriods,
    side: 'library',
    description: 'month: statistics of monthly values by calendar month; day: of daily values by day of the year (MM-DD)',
  },
  dataset: {
    name: 'dataset',
    option: 'dataset',
    kind: 'one',
    default: defaults.dataset,
    values: datasetNames,
    side: 'library',
    description: `Dataset name (${joined(datasetNames)})`,
  },
  variable: {
    name: 'variable',
    option: 'variable',
    kind: 'one',
    default: defaults.variable,
    side: 'library',
    description: 'Variable name (see /info/list_variables)',
  },
  output_format: format(outputFormats.list, `Response format (${outputFormats.list.join(' or ')})`),
  placesFormat: format(outputFormats.places, 'Response format: json, csv or geojson (a FeatureCollection of Points, RFC 7946)'),
  seriesFormat: format(outputFormats.series, 'Response format: json, csv, parquet (an Apache Parquet file) or arrow (an Arrow IPC stream)'),
  // the forecasts' (docs/forecasts.md)
  forecastVariables: {
    name: 'variables',
    option: 'variables',
    kind: 'list',
    limit: 'values',
    default: forecastVariables,
    values: forecastVariables,
    side: 'library',
    description: `One or more forecast variables (comma-separated): ${joined(forecastVariables)}`,
  },
  issued: {
    name: 'issued',
    option: 'issued',
    kind: 'one',
    default: 'latest',
    unit: 'day',
    side: 'library',
    description: 'The issue date of the forecast (yyyy-mm-dd), or latest: the newest issue held',
  },
  leads: {
    name: 'leads',
    option: 'leads',
    kind: 'one',
    default: `1-${MAX_LEAD}`,
    side: 'library',
    description: `Lead days after the issue date: one (7) or a range (1-7), within 1-${MAX_LEAD}`,
  },
  lead: {
    name: 'lead',
    option: 'lead',
    kind: 'one',
    default: '7',
    side: 'library',
    description: `The lead in days (1-${MAX_LEAD}): the forecast issued that many days before each valid date`,
  },
  statistics: {
    name: 'statistics',
    option: 'statistics',
    kind: 'list',
    limit: 'values',
    default: defaultStatistics,
    values: statisticValues,
    side: 'library',
    description: `Statistics of the ensemble (comma-separated): ${joined(statisticValues)}; members adds every kept member (m01, m02, ...)`,
  },
  validStart: {
    name: 'start_date',
    option: 'start',
    kind: 'one',
    unit: 'day',
    side: 'library',
    description: 'First valid date (yyyy-mm-dd), inclusive; default: the first one forecast at that lead',
  },
  validEnd: {
    name: 'end_date',
    option: 'end',
    kind: 'one',
    unit: 'day',
    side: 'library',
    description: 'Last valid date (yyyy-mm-dd), inclusive; default: the last one',
  },
  issueStart: {
    name: 'start_date',
    option: 'start',
    kind: 'one',
    unit: 'day',
    side: 'library',
    description: 'First issue date verified (yyyy-mm-dd); default: the first held',
  },
  issueEnd: {
    name: 'end_date',
    option: 'end',
    kind: 'one',
    unit: 'day',
    side: 'library',
    description: 'Last issue date verified (yyyy-mm-dd); default: the last held',
  },
  forecastAlsoReturn: alsoReturn(forecastAttributes, "the reservoir's metadata attributes"),
  // the model's what-if (docs/model.md)
  modelDatasets: {
    name: 'datasets',
    option: 'datasets',
    kind: 'list',
    limit: 'values',
    default: modelDatasets,
    values: modelDatasets,
    side: 'library',
    description: `The datasets the model computes (comma-separated): ${joined(modelDatasets)}`,
  },
  modelVariables: {
    name: 'variables',
    option: 'variables',
    kind: 'list',
    limit: 'values',
    default: modelVariables,
    side: 'library',
    description: `One or more of the variables the model computes (comma-separated): ${joined(modelVariables)}`,
  },
  modelInterval: {
    name: 'interval',
    option: 'interval',
    kind: 'one',
    default: 'daily',
    values: ['daily', ...intervals],
    side: 'library',
    description: 'daily: a record per day, as /timeseries/daily; monthly, annual or water-year: totals per period, as the aggregates',
  },
  modelAlsoReturn: alsoReturn(
    reservoirAttributes.slice(1).filter((a) => a !== 'qflag'),
    'a computed day has no qflag or status of its own',
  ),
  ta_delta: scenario('ta_delta', 'taDelta'),
  depth_m: scenario('depth_m', 'depthM'),
  stage_delta: scenario('stage_delta', 'stageDelta'),
  area_scale: scenario('area_scale', 'areaScale'),
  wind_scale: scenario('wind_scale', 'windScale'),
  tds: scenario('tds', 'tds'),
} as const satisfies Record<string, Parameter>;

const p = parameters;
const aggregateTail = [p.statistic, p.compare_to, p.base_start, p.base_end] as const;

/**
 * The operations, keyed by the name of the library method that answers them (the store's and the client's), in the
 * order they are documented; parameters in the order they are documented and sent. The aggregates take compare_to,
 * base_start and base_end on monthly intervals only (monthlyOnly); the library explains a compare_to on any other.
 */
export const operations = {
  reservoirTimeseries: {
    method: 'GET',
    path: '/timeseries/daily/reservoirs/daterange',
    answer: 'records',
    parameters: [p.RES_NAMES, p.datasets, p.variables, p.units, p.start_date, p.end_date, p.also_return, p.seriesFormat, p.as_of, p.modified_since],
  },
  reservoirTimeseriesOnDate: {
    method: 'GET',
    path: '/timeseries/daily/reservoirs/date',
    answer: 'records',
    parameters: [p.datasets, p.variables, p.units, p.date, p.also_return, p.seriesFormat, p.as_of, p.modified_since],
  },
  stationTimeseries: {
    method: 'GET',
    path: '/timeseries/stations/daterange',
    answer: 'records',
    parameters: [p.STA_NAMES, p.stationVariables, p.units, p.start_date, p.end_date, p.stationAlsoReturn, p.seriesFormat, p.as_of, p.modified_since],
  },
  stationTimeseriesOnDate: {
    method: 'GET',
    path: '/timeseries/stations/date',
    answer: 'records',
    parameters: [p.stationVariables, p.units, p.date, p.stationAlsoReturn, p.seriesFormat, p.as_of, p.modified_since],
  },
  listDatasets: { method: 'GET', path: '/info/list_datasets', answer: 'list', parameters: [p.output_format] },
  listVariables: { method: 'GET', path: '/info/list_variables', answer: 'list', parameters: [p.output_format, p.dataset] },
  listDates: { method: 'GET', path: '/info/list_dates', answer: 'list', parameters: [p.output_format, p.dataset, p.variable] },
  listReservoirNames: { method: 'POST', path: '/info/list_RES_NAMES', answer: 'places', parameters: [p.placesFormat] },
  listStationNames: { method: 'POST', path: '/info/list_STA_NAMES', answer: 'places', parameters: [p.placesFormat] },
  listStationVariables: { method: 'GET', path: '/info/list_stations_variables', answer: 'list', parameters: [p.output_format, p.staNamesOrAll] },
  listStationDates: { method: 'GET', path: '/info/list_stations_dates', answer: 'list', parameters: [p.output_format, p.staNamesOrAll] },
  reservoirMetadata: { method: 'GET', path: '/metadata/reservoirs', answer: 'places', parameters: [p.placesFormat, p.RES_NAMES] },
  stationMetadata: { method: 'GET', path: '/metadata/stations', answer: 'places', parameters: [p.placesFormat, p.metadataStaNames] },
  reservoirAggregates: {
    method: 'GET',
    path: '/timeseries/{interval}/reservoirs/daterange',
    answer: 'records',
    parameters: [
      p.interval,
      p.RES_NAMES,
      p.datasets,
      p.variables,
      p.units,
      p.start_date,
      p.end_date,
      ...aggregateTail,
      p.summaryAlsoReturn,
      p.seriesFormat,
      p.as_of,
    ],
  },
  stationAggregates: {
    method: 'GET',
    path: '/timeseries/{interval}/stations/daterange',
    answer: 'records',
    parameters: [
      p.interval,
      p.STA_NAMES,
      p.stationVariables,
      p.units,
      p.start_date,
      p.end_date,
      ...aggregateTail,
      p.stationSummaryAlsoReturn,
      p.seriesFormat,
      p.as_of,
    ],
  },
  reservoirNormals: {
    method: 'GET',
    path: '/timeseries/normals/reservoirs',
    answer: 'records',
    parameters: [p.RES_NAMES, p.datasets, p.variables, p.units, p.base_start, p.base_end, p.period, p.statistic, p.summaryAlsoReturn, p.seriesFormat, p.as_of],
  },
  stationNormals: {
    method: 'GET',
    path: '/timeseries/normals/stations',
    answer: 'records',
    parameters: [
      p.STA_NAMES,
      p.stationVariables,
      p.units,
      p.base_start,
      p.base_end,
      p.period,
      p.statistic,
      p.stationSummaryAlsoReturn,
      p.seriesFormat,
      p.as_of,
    ],
  },
  listSnapshots: { method: 'GET', path: '/info/list_snapshots', answer: 'list', parameters: [p.output_format] },
  changes: { method: 'GET', path: '/changes', answer: 'list', parameters: [p.output_format, p.since, p.as_of] },
  forecastDaily: {
    method: 'GET',
    path: '/forecast/daily/reservoirs',
    answer: 'records',
    parameters: [p.RES_NAMES, p.forecastVariables, p.issued, p.leads, p.statistics, p.units, p.forecastAlsoReturn, p.seriesFormat, p.as_of],
  },
  forecastLead: {
    method: 'GET',
    path: '/forecast/daily/reservoirs/lead',
    answer: 'records',
    parameters: [p.RES_NAMES, p.forecastVariables, p.lead, p.validStart, p.validEnd, p.statistics, p.units, p.forecastAlsoReturn, p.seriesFormat, p.as_of],
  },
  forecastTotal: {
    method: 'GET',
    path: '/forecast/total/reservoirs',
    answer: 'records',
    parameters: [p.RES_NAMES, p.forecastVariables, p.issued, p.leads, p.statistics, p.units, p.forecastAlsoReturn, p.seriesFormat, p.as_of],
  },
  forecastVerification: {
    method: 'GET',
    path: '/forecast/verification/reservoirs',
    answer: 'records',
    parameters: [p.RES_NAMES, p.forecastVariables, p.issueStart, p.issueEnd, p.leads, p.units, p.seriesFormat, p.as_of],
  },
  listForecastIssues: { method: 'GET', path: '/forecast/info/list_issues', answer: 'list', parameters: [p.output_format, p.RES_NAMES] },
  listForecastVariables: { method: 'GET', path: '/forecast/info/list_variables', answer: 'list', parameters: [p.output_format, p.RES_NAMES] },
  about: { method: 'GET', path: '/info/about', answer: 'list', parameters: [p.output_format] },
  reservoirModel: {
    method: 'GET',
    path: '/model/reservoirs/daterange',
    answer: 'records',
    parameters: [
      p.RES_NAMES,
      p.modelDatasets,
      p.modelVariables,
      p.units,
      p.start_date,
      p.end_date,
      p.modelInterval,
      p.statistic,
      p.ta_delta,
      p.depth_m,
      p.stage_delta,
      p.area_scale,
      p.wind_scale,
      p.tds,
      p.modelAlsoReturn,
      p.seriesFormat,
      p.as_of,
    ],
  },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof operations;

/** The operations that answer records (streamed by the store's `stream<Name>` method). */
export type RecordsOperation = { [O in OperationName]: (typeof operations)[O]['answer'] extends 'records' ? O : never }[OperationName];

type ParameterOf<O extends OperationName> = (typeof operations)[O]['parameters'][number];

/** The library options of an operation read from the query, inferred from its parameters: a list is an array of strings, one value a string. */
export type OptionsOf<O extends OperationName> = {
  -readonly [P in Exclude<Extract<ParameterOf<O>, { side: 'library' }>, { in: 'path' }> as P['option']]?: P extends { kind: 'list' } ? string[] : string;
};

/**
 * Every option an operation's checkOptions takes: the library's, its path's, and the server's as_of and
 * modified_since (which the array methods take too), but the answer format; as a CLI reads them from flags.
 */
export type QueryOf<O extends OperationName> = {
  -readonly [P in Exclude<ParameterOf<O>, { name: 'output_format' } | { in: 'path' }> as P['option']]?: P extends { kind: 'list' } ? string[] : string;
} & PathOptionsOf<O>;

/**
 * The array method of each records operation, named as the operation: a store, a view of its past and the remote
 * client all have them (`implements RecordsMethods`, so tsc refuses one left out); lib/open/dispatch.ts calls them.
 */
export type RecordsMethods = { [O in RecordsOperation]: (options?: QueryOf<O>) => Promise<WireRecord[]> };

/** The options of an operation's path parameters (an aggregate's interval, one of its values): pathOf fills them in. */
export type PathOptionsOf<O extends OperationName> = {
  -readonly [P in Extract<ParameterOf<O>, { side: 'library'; in: 'path' }> as P['option']]?: P extends { values: readonly (infer V)[] } ? V : string;
};

/** The output formats an operation offers. */
export type FormatOf<O extends OperationName> = Extract<ParameterOf<O>, { name: 'output_format' }>['values'][number];

/** The aggregate parameters of monthly intervals only. */
export const monthlyOnly: readonly Parameter[] = aggregateTail.slice(1);

/** The parameter entries of an operation. */
export function parametersOf(operation: OperationName): readonly Parameter[] {
  return operations[operation].parameters;
}

/** An operation's path with its path parameters filled in (`values`, else each one's default). */
export function pathOf(operation: OperationName, options: object = {}): string {
  const values = options as Readonly<Record<string, unknown>>;
  return operations[operation].path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const parameter = parametersOf(operation).find((q) => q.name === name)!;
    return String(values[parameter.option] ?? parameter.default);
  });
}

/** An operation's options under their wire names (undefined where left out; path parameters are in pathOf), for the remote client. */
export function toWire(operation: OperationName, options: object): Record<string, string | readonly string[] | undefined> {
  const values = options as Readonly<Record<string, unknown>>;
  return Object.fromEntries(
    parametersOf(operation)
      .filter((q) => q.in !== 'path')
      .map((q) => [q.name, values[q.option] as string | readonly string[] | undefined]),
  );
}

/**
 * The library options of an operation from its query's wire values (`read` gives a list split, a single value as it
 * is, or undefined when left out), for the server. Neither the server's own parameters nor the path's are among them.
 * Values are passed on unchecked: the library validates every option before reading anything.
 */
export function fromWire<O extends OperationName>(operation: O, read: (parameter: Parameter) => string | string[] | undefined): OptionsOf<O> {
  const options: Record<string, string | string[]> = {};
  for (const parameter of parametersOf(operation)) {
    if (parameter.side !== 'library' || parameter.in === 'path') continue;
    const value = read(parameter);
    if (value !== undefined) options[parameter.option] = value;
  }
  return options as OptionsOf<O>; // the keys are the library parameters' options, as OptionsOf says
}

/** The option keys the library takes for an operation: its parameters' options (as_of's and a path's included), but the answer format. */
function optionsOf(operation: OperationName): string[] {
  return parametersOf(operation)
    .filter((p) => p.name !== 'output_format')
    .map((p) => p.option);
}

/**
 * An operation's options as the library reads them: an option no parameter of the operation names is refused (a typed
 * script cannot pass one; a JavaScript one learns of its typo instead of getting the defaults), a string where a list
 * is taken is split at commas as the wire splits it (asList), and a Date where a day is taken is its UTC day
 * (YYYY-MM-DD), where a time its ISO time.
 */
export function checkOptions<Q extends object>(operation: OperationName, options: Q): Q {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new InvalidParameterError('options', `the options of ${operation} must be an object, e.g. { names: ['LAKE MEAD'] }; got ${describe(options)}`);
  const known = optionsOf(operation);
  const checked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const parameter = parametersOf(operation).find((p) => p.option === key && p.name !== 'output_format');
    if (!parameter)
      throw new InvalidParameterError(
        key,
        `unknown option ${JSON.stringify(key)}${didYouMean(key, known)}; the options of ${operation} are ${known.join(', ')}`,
        'not-allowed',
        key,
      );
    checked[key] = parameter.kind === 'list' ? asList(value) : value instanceof Date ? fromDate(value, parameter) : value;
  }
  return checked as Q; // the same options, a string list and a Date written as the rest of the library reads them
}

/**
 * An error of an operation in the words of the library's caller: an InvalidParameterError naming a wire parameter
 * (start_date) names the option the caller wrote (start), in its `parameter` and its message, and keeps the wire's
 * words in `wire` for the server and the CLI; any other error, or one naming no renamed parameter, is as it was.
 */
export function inOptionWords(operation: OperationName, error: unknown): unknown {
  if (!(error instanceof InvalidParameterError) || error.wire !== undefined) return error;
  const renamed = parametersOf(operation).filter((p) => p.option !== p.name);
  const parameter = renamed.find((p) => p.name === error.parameter);
  if (parameter === undefined) return error;
  const optionOf = new Map(renamed.map((p) => [p.name, p.option]));
  const names = new RegExp(`(?<![\\w-])(${renamed.map((p) => p.name).join('|')})(?![\\w-])`, 'g');
  // only the parameters' names (end_date ... start_date), never a value inside quotes
  const message = error.message
    .split(/("(?:[^"\\]|\\.)*")/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(names, (name) => optionOf.get(name)!)))
    .join('');
  return new InvalidParameterError(parameter.option, message, error.reason, error.value, { parameter: error.parameter, message: error.message });
}

/**
 * A list option's values, each string split at commas and trimmed as the wire splits a parameter ('NetE,E_volume' ->
 * ['NetE', 'E_volume']), so that the library, the CLI and HTTP read one text alike. No name or variable holds a comma:
 * the wire could not ask for it. A value without a comma is kept as it is; anything else is left to the checks.
 */
export function asList(value: unknown): unknown {
  const split = (v: unknown) => (typeof v === 'string' && v.includes(',') ? v.split(',').map((item) => item.trim()) : [v]);
  if (typeof value === 'string') return split(value);
  return Array.isArray(value) ? value.flatMap(split) : value;
}

function fromDate(date: Date, parameter: Parameter): string {
  if (Number.isNaN(date.getTime())) throw new InvalidParameterError(parameter.name, `${parameter.option} is an invalid Date`, 'not-a-date', String(date));
  if (parameter.unit === 'time') return date.toISOString();
  if (parameter.unit === 'day') return date.toISOString().slice(0, 10);
  throw new InvalidParameterError(parameter.name, `${parameter.option} takes text, not a Date`, 'malformed', date.toISOString());
}

const describe = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`);
