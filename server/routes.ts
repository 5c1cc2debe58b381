// The documented paths: each maps its parameters onto one library call and formats the answer. Which parameters a path
// takes, and how each maps onto the library's options, is the wire table's (lib/sync/wire.ts), never written here.
import type { EvapStore } from '../lib/store/store.js';
import type { ReservoirDateQuery, ReservoirRangeQuery, StationDateQuery, StationRangeQuery, WireRecord } from '../lib/types.js';
import { metadataAnswer, type ListFormat as Places, type TimeseriesFormat as Series, timeseriesAnswer } from './answer-formats.js';
import { withAsOf } from './as-of.js';
import { listResponse } from './format.js';
import { type OutputFormat, readShapefileParts } from './params.js';
import { withPostTwins } from './post-routes.js';
import { aboutResponse } from './provenance.js';
import { type Route, tableRoute } from './route.js';
import { summaryRoutes } from './summary-routes.js';

export type { Route, RouteContext } from './route.js';

// Records of one kind have the same keys; the CSV header is the first record's keys (or the fallback when empty).
function columnsOf(records: readonly WireRecord[], fallback: readonly string[]): string[] {
  return records.length > 0 ? Object.keys(records[0]!) : [...fallback];
}

// `{"RES_NAMES": [...]}` as the public service answers; as CSV one column named like the metadata's name column.
// with output_format=geojson, the listed names' metadata as points
const names = (key: 'RES_NAME' | 'STA_NAME', values: string[], format: Places, store: EvapStore) =>
  metadataAnswer(
    format,
    { [`${key}S`]: values },
    values.map((v) => ({ [key]: v })),
    [key],
    key,
    () => (key === 'RES_NAME' ? store.reservoirMetadata(values) : store.stationMetadata(values)),
  );
const variableColumns = ['api_name', 'description', 'dataset', 'units_metric', 'units_english'];
const dateColumns = ['start_date', 'end_date'];

type Listing = { dataset?: string; variable?: string; names?: string[] };

/** Every documented path of the public service, in the order its documentation lists them, then aggregates and normals (issue 14), then POST twins. */
export const routes: readonly Route[] = withPostTwins(
  withAsOf([
    tableRoute<ReservoirRangeQuery, Series>(
      { method: 'GET', path: '/timeseries/daily/reservoirs/daterange', tag: 'Timeseries', summary: 'Reservoir timeseries over a date range' },
      'reservoirTimeseries',
      ({ options, format }, { store, admit }) => timeseriesAnswer(format, admit(store.streamReservoirTimeseries(options))),
    ),
    tableRoute<ReservoirDateQuery, Series>(
      { method: 'GET', path: '/timeseries/daily/reservoirs/date', tag: 'Timeseries', summary: 'Every reservoir on one date' },
      'reservoirTimeseriesOnDate',
      ({ options, format }, { store, admit }) => timeseriesAnswer(format, admit(store.streamReservoirTimeseriesOnDate(options))),
    ),
    tableRoute<StationRangeQuery, Series>(
      { method: 'GET', path: '/timeseries/stations/daterange', tag: 'Timeseries', summary: 'Station timeseries over a date range' },
      'stationTimeseries',
      ({ options, format }, { store, admit }) => timeseriesAnswer(format, admit(store.streamStationTimeseries(options))),
    ),
    tableRoute<StationDateQuery, Series>(
      { method: 'GET', path: '/timeseries/stations/date', tag: 'Timeseries', summary: 'Every station on one date' },
      'stationTimeseriesOnDate',
      ({ options, format }, { store, admit }) => timeseriesAnswer(format, admit(store.streamStationTimeseriesOnDate(options))),
    ),
    tableRoute<Listing, OutputFormat>(
      { method: 'GET', path: '/info/list_datasets', tag: 'Info', summary: 'The datasets (a JSON list of names)' },
      'listDatasets',
      ({ format }, { store }) => {
        const names = store.listDatasets();
        return listResponse(
          format,
          names,
          names.map((d) => ({ dataset: d })),
          ['dataset'],
        );
      },
    ),
    tableRoute<Listing, OutputFormat>(
      { method: 'GET', path: '/info/list_variables', tag: 'Info', summary: 'The variables of a dataset' },
      'listVariables',
      ({ options, format }, { store }) => {
        const records = store.listVariables(options.dataset);
        return listResponse(format, records, records, variableColumns);
      },
    ),
    tableRoute<Listing, OutputFormat>(
      { method: 'GET', path: '/info/list_dates', tag: 'Info', summary: 'The first and last date of a dataset variable' },
      'listDates',
      ({ options, format }, { store }) => {
        const records = store.listDates(options.dataset, options.variable);
        return listResponse(format, records, records, dateColumns);
      },
    ),
    tableRoute<Listing, Places>(
      {
        method: 'POST',
        path: '/info/list_RES_NAMES',
        tag: 'Info',
        summary: 'Reservoir names, optionally only those inside an uploaded shapefile',
        upload: true,
      },
      'listReservoirNames',
      async ({ format }, { store, request, limits }) => {
        const parts = await readShapefileParts(request, limits);
        return names('RES_NAME', await store.listReservoirNames(parts), format, store);
      },
    ),
    tableRoute<Listing, Places>(
      { method: 'POST', path: '/info/list_STA_NAMES', tag: 'Info', summary: 'Station names, optionally only those inside an uploaded shapefile', upload: true },
      'listStationNames',
      async ({ format }, { store, request, limits }) => {
        const parts = await readShapefileParts(request, limits);
        return names('STA_NAME', await store.listStationNames(parts), format, store);
      },
    ),
    tableRoute<Listing, OutputFormat>(
      { method: 'GET', path: '/info/list_stations_variables', tag: 'Info', summary: 'The variables that stations hold' },
      'listStationVariables',
      ({ options, format }, { store }) => {
        const records = store.listStationVariables(options.names);
        return listResponse(format, records, records, variableColumns);
      },
    ),
    tableRoute<Listing, OutputFormat>(
      { method: 'GET', path: '/info/list_stations_dates', tag: 'Info', summary: 'The first and last date with station data' },
      'listStationDates',
      ({ options, format }, { store }) => {
        const records = store.listStationDates(options.names);
        return listResponse(format, records, records, dateColumns);
      },
    ),
    tableRoute<Listing, Places>(
      { method: 'GET', path: '/metadata/reservoirs', tag: 'Metadata', summary: 'Reservoir metadata' },
      'reservoirMetadata',
      ({ options, format }, { store }) => {
        const records = store.reservoirMetadata(options.names);
        return metadataAnswer(format, records, records, columnsOf(records, ['RES_NAME']), 'RES_NAME');
      },
    ),
    tableRoute<Listing, Places>(
      { method: 'GET', path: '/metadata/stations', tag: 'Metadata', summary: 'Station metadata' },
      'stationMetadata',
      ({ options, format }, { store }) => {
        const records = store.stationMetadata(options.names);
        return metadataAnswer(format, records, records, columnsOf(records, ['STA_NAME']), 'STA_NAME');
      },
    ),
    ...summaryRoutes(),
    tableRoute<Listing, OutputFormat>(
      {
        method: 'GET',
        path: '/info/list_snapshots',
        tag: 'Info',
        summary: 'The retained snapshots of the data (oldest first): id, time, and the files and rows each added',
      },
      'listSnapshots',
      async ({ format }, { store }) => {
        const records = (await store.listSnapshots()) as unknown as WireRecord[];
        return listResponse(format, records, records, snapshotColumns);
      },
    ),
    tableRoute<Listing, OutputFormat>(
      {
        method: 'GET',
        path: '/info/about',
        tag: 'Info',
        summary:
          "The data's provenance and citation: synthetic or where it came from, when it was retrieved, the model, licence, citation, the time zone of a day",
      },
      'about',
      ({ format }, { store }) => aboutResponse(format, store.about()),
    ),
  ]),
);

const snapshotColumns: string[] = ['id', 'snapshot', 'time', 'files', 'rows', 'removed'];
