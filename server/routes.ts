// The documented paths: each maps its parameters onto one library call and formats the answer.
import { datasetNames, defaults, reservoirAttributes, stationAttributes, stationVariableNames, unitSystems } from '../lib/catalogue.js';
import { reservoirDayAttributes, stationDayAttributes, withDayAttributes } from '../lib/flags.js';
import type { EvapStore } from '../lib/store/store.js';
import { withAsOf } from './as-of.js';
import type { IncomingRequest } from './incoming.js';
import type { WireRecord } from '../lib/types.js';
import { fromWire, timeseriesWire, type WireName } from '../lib/sync/wire.js';
import { listFormats, metadataAnswer, readFormat, timeseriesAnswer, timeseriesFormats, type ListFormat } from './answer-formats.js';
import { listResponse } from './format.js';
import { readShapefileParts, type QueryParams, type RequestLimits } from './params.js';
import { withPostTwins } from './post-routes.js';
import { summaryRoutes } from './summary-routes.js';

/** A query parameter as /openapi.json describes it (defaults and allowed values come from the catalogue). */
export interface ParameterSpec {
  name: string;
  description: string;
  default?: string;
  enum?: readonly string[];
}

/** What a route handler gets. */
export interface RouteContext {
  store: EvapStore;
  query: QueryParams;
  request: IncomingRequest;
  limits: RequestLimits;
}

/** One documented path. */
export interface Route {
  method: 'GET' | 'POST';
  path: string;
  tag: 'Info' | 'Metadata' | 'Timeseries';
  summary: string;
  parameters: readonly ParameterSpec[];
  upload?: boolean; // accepts the four optional shapefile parts as multipart/form-data
  body?: 'parameters'; // a POST twin: the parameters also in a JSON or urlencoded body
  run(context: RouteContext): Promise<Response> | Response;
}

const list = (values: readonly string[]) => values.join(', ');
const outputFormat: ParameterSpec = { name: 'output_format', description: 'Response format (json or csv)', default: defaults.output_format, enum: ['json', 'csv'] };
const seriesFormat: ParameterSpec = { name: 'output_format', description: 'Response format: json, csv, parquet (application/vnd.apache.parquet) or arrow (an Arrow IPC stream)', default: defaults.output_format, enum: timeseriesFormats };
const placesFormat: ParameterSpec = { name: 'output_format', description: 'Response format: json, csv or geojson (a FeatureCollection of Points, RFC 7946)', default: defaults.output_format, enum: listFormats };
const units: ParameterSpec = { name: 'units', description: 'Units for returned data (english or metric)', default: defaults.units, enum: unitSystems };
const startDate: ParameterSpec = { name: 'start_date', description: 'Start date (yyyy-mm-dd), inclusive; or latest, or an ISO 8601 duration counted back from end_date (P30D: the 30 days ending with end_date; P1Y)', default: defaults.start_date };
const endDate: ParameterSpec = { name: 'end_date', description: 'End date (yyyy-mm-dd), inclusive; or latest: the last day held for the requested datasets or stations', default: defaults.end_date };
const date: ParameterSpec = { name: 'date', description: 'Date (yyyy-mm-dd), or latest: the last day held for the requested datasets or stations', default: defaults.date };
const resNames: ParameterSpec = { name: 'RES_NAMES', description: 'One or more reservoir names (comma-separated); see /info/list_RES_NAMES', default: list(defaults.RES_NAMES) };
const datasets: ParameterSpec = { name: 'datasets', description: `One or more datasets (comma-separated): ${list(datasetNames)}`, default: list(defaults.datasets) };
const resVariables: ParameterSpec = { name: 'variables', description: 'One or more variables (comma-separated) of the chosen datasets; see /info/list_variables', default: list(defaults.variables) };
const staVariables: ParameterSpec = { name: 'variables', description: 'One or more station variables (comma-separated); see /info/list_stations_variables', default: list(stationVariableNames) };
const resAlso: ParameterSpec = { name: 'also_return', description: `Attributes added to every record (comma-separated): ${list(withDayAttributes(reservoirAttributes.slice(1), reservoirDayAttributes))}. qflag is the day's quality flag (O, M, S, R), status the day's status (Early, Provisional, Final)` };
const staAlso: ParameterSpec = { name: 'also_return', description: `Attributes added to every record (comma-separated): ${list(withDayAttributes(stationAttributes.slice(1), stationDayAttributes))}. status is the day's status (Early, Provisional, Final); qflag the station's` };
const staNames = (fallback: readonly string[]): ParameterSpec => ({ name: 'STA_NAMES', description: 'One or more station names (comma-separated); see /info/list_STA_NAMES', default: list(fallback) });
const staNamesOrAll: ParameterSpec = { name: 'STA_NAMES', description: 'One or more station names (comma-separated), or ALL_STATIONS', default: defaults.ALL_STATIONS };
const dataset: ParameterSpec = { name: 'dataset', description: `Dataset name (${list(datasetNames)})`, default: defaults.dataset, enum: datasetNames };
const variable: ParameterSpec = { name: 'variable', description: 'Variable name (see /info/list_variables)', default: defaults.variable };

// a timeseries query from the wire table (lib/sync/wire.ts); as_of is answered by as-of.ts, which hands the route that snapshot's store
const wireQuery = (q: QueryParams, names: readonly WireName[]) => fromWire(names.filter((n) => n !== 'as_of'), q);

// Records of one kind have the same keys; the CSV header is the first record's keys (or the fallback when empty).
function columnsOf(records: readonly WireRecord[], fallback: readonly string[]): string[] {
  return records.length > 0 ? Object.keys(records[0]!) : [...fallback];
}

// `{"RES_NAMES": [...]}` as the public service answers; as CSV one column named like the metadata's name column.
// with output_format=geojson, the listed names' metadata as points
const names = (key: 'RES_NAME' | 'STA_NAME', values: string[], format: ListFormat, store: EvapStore) =>
  metadataAnswer(format, { [`${key}S`]: values }, values.map((v) => ({ [key]: v })), [key], key, () => (key === 'RES_NAME' ? store.reservoirMetadata(values) : store.stationMetadata(values)));
const variableColumns = ['api_name', 'description', 'dataset', 'units_metric', 'units_english'];
const dateColumns = ['start_date', 'end_date'];

/** Every documented path of the public service, in the order its documentation lists them, then aggregates and normals (issue 14), then POST twins. */
export const routes: readonly Route[] = withPostTwins(withAsOf([
  {
    method: 'GET', path: '/timeseries/daily/reservoirs/daterange', tag: 'Timeseries', summary: 'Reservoir timeseries over a date range',
    parameters: [resNames, datasets, resVariables, units, startDate, endDate, resAlso, seriesFormat],
    run: ({ store, query: q }) => {
      const format = readFormat(q, timeseriesFormats);
      const stream = store.streamReservoirTimeseries(wireQuery(q, timeseriesWire.reservoirRange));
      return timeseriesAnswer(format, stream);
    },
  },
  {
    method: 'GET', path: '/timeseries/daily/reservoirs/date', tag: 'Timeseries', summary: 'Every reservoir on one date',
    parameters: [datasets, resVariables, units, date, resAlso, seriesFormat],
    run: ({ store, query: q }) => {
      const format = readFormat(q, timeseriesFormats);
      const stream = store.streamReservoirTimeseriesOnDate(wireQuery(q, timeseriesWire.reservoirDate));
      return timeseriesAnswer(format, stream);
    },
  },
  {
    method: 'GET', path: '/timeseries/stations/daterange', tag: 'Timeseries', summary: 'Station timeseries over a date range',
    parameters: [staNames(defaults.STA_NAMES), staVariables, units, startDate, endDate, staAlso, seriesFormat],
    run: ({ store, query: q }) => {
      const format = readFormat(q, timeseriesFormats);
      const stream = store.streamStationTimeseries(wireQuery(q, timeseriesWire.stationRange));
      return timeseriesAnswer(format, stream);
    },
  },
  {
    method: 'GET', path: '/timeseries/stations/date', tag: 'Timeseries', summary: 'Every station on one date',
    parameters: [staVariables, units, date, staAlso, seriesFormat],
    run: ({ store, query: q }) => {
      const format = readFormat(q, timeseriesFormats);
      const stream = store.streamStationTimeseriesOnDate(wireQuery(q, timeseriesWire.stationDate));
      return timeseriesAnswer(format, stream);
    },
  },
  {
    method: 'GET', path: '/info/list_datasets', tag: 'Info', summary: 'The datasets (a JSON list of names)',
    parameters: [outputFormat],
    run: ({ store, query: q }) => {
      const format = q.format();
      const names = store.listDatasets();
      return listResponse(format, names, names.map((d) => ({ dataset: d })), ['dataset']);
    },
  },
  {
    method: 'GET', path: '/info/list_variables', tag: 'Info', summary: 'The variables of a dataset',
    parameters: [outputFormat, dataset],
    run: ({ store, query: q }) => {
      const format = q.format();
      const records = store.listVariables(q.one('dataset'));
      return listResponse(format, records, records, variableColumns);
    },
  },
  {
    method: 'GET', path: '/info/list_dates', tag: 'Info', summary: 'The first and last date of a dataset variable',
    parameters: [outputFormat, dataset, variable],
    run: ({ store, query: q }) => {
      const format = q.format();
      const records = store.listDates(q.one('dataset'), q.one('variable'));
      return listResponse(format, records, records, dateColumns);
    },
  },
  {
    method: 'POST', path: '/info/list_RES_NAMES', tag: 'Info', summary: 'Reservoir names, optionally only those inside an uploaded shapefile',
    parameters: [placesFormat], upload: true,
    run: async (context) => {
      const format = readFormat(context.query, listFormats);
      const parts = await readShapefileParts(context.request, context.limits);
      return names('RES_NAME', await context.store.listReservoirNames(parts), format, context.store);
    },
  },
  {
    method: 'POST', path: '/info/list_STA_NAMES', tag: 'Info', summary: 'Station names, optionally only those inside an uploaded shapefile',
    parameters: [placesFormat], upload: true,
    run: async (context) => {
      const format = readFormat(context.query, listFormats);
      const parts = await readShapefileParts(context.request, context.limits);
      return names('STA_NAME', await context.store.listStationNames(parts), format, context.store);
    },
  },
  {
    method: 'GET', path: '/info/list_stations_variables', tag: 'Info', summary: 'The variables that stations hold',
    parameters: [outputFormat, staNamesOrAll],
    run: ({ store, query: q }) => {
      const format = q.format();
      const records = store.listStationVariables(q.list('STA_NAMES'));
      return listResponse(format, records, records, variableColumns);
    },
  },
  {
    method: 'GET', path: '/info/list_stations_dates', tag: 'Info', summary: 'The first and last date with station data',
    parameters: [outputFormat, staNamesOrAll],
    run: ({ store, query: q }) => {
      const format = q.format();
      const records = store.listStationDates(q.list('STA_NAMES'));
      return listResponse(format, records, records, dateColumns);
    },
  },
  {
    method: 'GET', path: '/metadata/reservoirs', tag: 'Metadata', summary: 'Reservoir metadata',
    parameters: [placesFormat, resNames],
    run: ({ store, query: q }) => {
      const format = readFormat(q, listFormats);
      const records = store.reservoirMetadata(q.list('RES_NAMES'));
      return metadataAnswer(format, records, records, columnsOf(records, ['RES_NAME']), 'RES_NAME');
    },
  },
  {
    method: 'GET', path: '/metadata/stations', tag: 'Metadata', summary: 'Station metadata',
    parameters: [placesFormat, staNames(defaults.STA_NAMES_METADATA)],
    run: ({ store, query: q }) => {
      const format = readFormat(q, listFormats);
      const records = store.stationMetadata(q.list('STA_NAMES'));
      return metadataAnswer(format, records, records, columnsOf(records, ['STA_NAME']), 'STA_NAME');
    },
  },
  ...summaryRoutes({ resNames, staNames: staNames(defaults.STA_NAMES), datasets, resVariables, staVariables, units, startDate, endDate, resAlso, staAlso, outputFormat: seriesFormat }),
  {
    method: 'GET', path: '/info/list_snapshots', tag: 'Info', summary: 'The retained snapshots of the data (oldest first): id, time, and the files and rows each added',
    parameters: [outputFormat],
    run: async ({ store, query: q }) => {
      const format = q.format();
      const records = (await store.listSnapshots()) as unknown as WireRecord[];
      return listResponse(format, records, records, snapshotColumns);
    },
  },
]));

const snapshotColumns: string[] = ['id', 'snapshot', 'time', 'files', 'rows', 'removed'];
