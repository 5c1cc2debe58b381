// The documented paths: each maps its parameters onto one library call and formats the answer. Which parameters a path
// takes, and how each maps onto the library's options, is the operations table's (lib/operations.ts), never written
// here; an operation answering records needs only its summary (recordsRoute).
import type { StoreReader } from '../lib/open/store.js';
import type { WireRecord } from '../lib/types.js';
import { listResponse, metadataAnswer, type ListFormat as Places } from './answers.js';
import { readShapefileParts } from './body.js';
import { forecastRoutes } from './forecast-routes.js';
import { modelRoutes } from './model-routes.js';
import { withPostTwins } from './post-routes.js';
import { aboutResponse } from './provenance.js';
import { type Route, recordsRoute, tableRoute } from './route.js';
import { summaryRoutes } from './summary-routes.js';

export type { Route } from './route.js';

// Records of one kind have the same keys; the CSV header is the first record's keys (or the fallback when empty).
function columnsOf(records: readonly WireRecord[], fallback: readonly string[]): string[] {
  return records.length > 0 ? Object.keys(records[0]!) : [...fallback];
}

// `{"RES_NAMES": [...]}` as the public service answers; as CSV one column named like the metadata's name column.
// with output_format=geojson, the listed names' metadata as points
const names = (key: 'RES_NAME' | 'STA_NAME', values: string[], format: Places, store: StoreReader) =>
  metadataAnswer(
    format,
    { [`${key}S`]: values },
    values.map((v) => ({ [key]: v })),
    [key],
    key,
    // a store without stations lists none: no names is no features here, not the empty list a metadata query refuses
    () => (values.length === 0 ? [] : key === 'RES_NAME' ? store.reservoirMetadata(values) : store.stationMetadata(values)),
  );
const variableColumns = ['api_name', 'description', 'dataset', 'units_metric', 'units_english'];
const dateColumns = ['start_date', 'end_date'];

/** Every documented path of the public service, in the order its documentation lists them, then aggregates and normals (issue 14), then POST twins. */
export const routes: readonly Route[] = withPostTwins([
  recordsRoute('reservoirTimeseries', { tag: 'Timeseries', summary: 'Reservoir timeseries over a date range' }),
  recordsRoute('reservoirTimeseriesOnDate', { tag: 'Timeseries', summary: 'Every reservoir on one date' }),
  recordsRoute('stationTimeseries', { tag: 'Timeseries', summary: 'Station timeseries over a date range' }),
  recordsRoute('stationTimeseriesOnDate', { tag: 'Timeseries', summary: 'Every station on one date' }),
  tableRoute('listDatasets', { tag: 'Info', summary: 'The datasets (a JSON list of names)' }, ({ format }, { store }) => {
    const names = store.listDatasets();
    return listResponse(
      format,
      names,
      names.map((d) => ({ dataset: d })),
      ['dataset'],
    );
  }),
  tableRoute('listVariables', { tag: 'Info', summary: 'The variables of a dataset' }, ({ options, format }, { store }) => {
    const records = store.listVariables(options.dataset);
    return listResponse(format, records, records, variableColumns);
  }),
  tableRoute('listDates', { tag: 'Info', summary: 'The first and last date of a dataset variable' }, ({ options, format }, { store }) => {
    const records = store.listDates(options.dataset, options.variable);
    return listResponse(format, records, records, dateColumns);
  }),
  tableRoute(
    'listReservoirNames',
    { tag: 'Info', summary: 'Reservoir names, optionally only those inside an uploaded shapefile', upload: true },
    async ({ format }, { store, request, limits }) => {
      const parts = await readShapefileParts(request, limits);
      return names('RES_NAME', await store.listReservoirNames(parts), format, store);
    },
  ),
  tableRoute(
    'listStationNames',
    { tag: 'Info', summary: 'Station names, optionally only those inside an uploaded shapefile', upload: true },
    async ({ format }, { store, request, limits }) => {
      const parts = await readShapefileParts(request, limits);
      return names('STA_NAME', await store.listStationNames(parts), format, store);
    },
  ),
  tableRoute('listStationVariables', { tag: 'Info', summary: 'The variables that stations hold' }, ({ options, format }, { store }) => {
    const records = store.listStationVariables(options.names);
    return listResponse(format, records, records, variableColumns);
  }),
  tableRoute('listStationDates', { tag: 'Info', summary: 'The first and last date with station data' }, ({ options, format }, { store }) => {
    const records = store.listStationDates(options.names);
    return listResponse(format, records, records, dateColumns);
  }),
  tableRoute('reservoirMetadata', { tag: 'Metadata', summary: 'Reservoir metadata' }, ({ options, format }, { store }) => {
    const records = store.reservoirMetadata(options.names);
    return metadataAnswer(format, records, records, columnsOf(records, ['RES_NAME']), 'RES_NAME');
  }),
  tableRoute('stationMetadata', { tag: 'Metadata', summary: 'Station metadata' }, ({ options, format }, { store }) => {
    const records = store.stationMetadata(options.names);
    return metadataAnswer(format, records, records, columnsOf(records, ['STA_NAME']), 'STA_NAME');
  }),
  ...summaryRoutes(),
  ...forecastRoutes(),
  ...modelRoutes(),
  tableRoute(
    'listSnapshots',
    { tag: 'Info', summary: 'The retained snapshots of the data (oldest first): id, time, and the files and rows each added' },
    async ({ format }, { store }) => {
      const records = await store.listSnapshots();
      return listResponse(format, records, records, snapshotColumns);
    },
  ),
  tableRoute(
    'changes',
    { tag: 'Info', summary: "What changed since a snapshot: each table's names and days, and the snapshot to ask from next time" },
    async ({ options, format }, { store }) => {
      const answer = await store.changes(options);
      const response = listResponse(format, answer, answer.changes, changeColumns);
      response.headers.set('x-evap-snapshot', String(answer.current)); // the CSV's `current`, which its rows cannot say
      return response;
    },
  ),
  tableRoute(
    'about',
    {
      tag: 'Info',
      summary:
        "The data's provenance and citation: synthetic or where it came from, when it was retrieved, the model, licence, citation, the time zone of a day",
    },
    ({ format }, { store }) => aboutResponse(format, store.about()),
  ),
]);

const snapshotColumns: string[] = ['id', 'snapshot', 'time', 'files', 'rows', 'removed'];
const changeColumns: string[] = ['table', 'name', 'start_date', 'end_date'];
