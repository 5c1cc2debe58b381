// Which files of a store snapshot make each table, grouped the way the files are laid out (a dataset's years, the
// stations, the one metadata file), with the bounds engines prune by.
import { type DatasetName, datasetNames } from '../catalogue.js';
import { parseDay } from '../dates.js';
import type { FileEntry, ForecastFile, ForecastMonth, Manifest } from '../store/manifest.js';
import {
  datasetFields,
  datasetTable,
  FORECAST_TABLE,
  FORECAST_TOTALS_TABLE,
  forecastFields,
  forecastTotalsFields,
  RESERVOIR_METADATA_TABLE,
  STATION_METADATA_TABLE,
  STATION_TABLE,
  stationFields,
  type TableField,
} from './fields.js';
import type { PartitionKind, PartitionValue } from './manifests.js';

/** A data file of a table, store-relative, with its name and date bounds when known. */
interface TableFile {
  path: string;
  rows: number;
  bytes: number;
  names?: [string, string]; // least and greatest name
  dates?: [string, string]; // first and last date
}

/** The files of one partition value of a table. */
interface TableGroup {
  key: string; // the partition, as text: '2020', a station name, or ''
  value: PartitionValue;
  files: TableFile[];
}

/** One table of a snapshot: how it is partitioned, its columns (undefined: read from its metadata file), its files. */
export interface SnapshotTable {
  name: string;
  kind: PartitionKind;
  fields: TableField[] | undefined;
  key: 'RES_NAME' | 'STA_NAME';
  groups: TableGroup[];
}

/** Every table of a store snapshot, in the order of `tableNames`; tables with no file have no group. */
export function snapshotTables(manifest: Manifest): SnapshotTable[] {
  const tables: SnapshotTable[] = datasetNames.map((dataset: DatasetName) => ({
    name: datasetTable(dataset),
    kind: 'year',
    fields: datasetFields(dataset),
    key: 'RES_NAME',
    groups: (manifest.datasets[dataset]?.partitions ?? []).map((p) => ({
      key: String(p.year),
      value: p.year - 1970,
      files: p.files.map((f) => ({ path: f.path, rows: f.rows, bytes: f.bytes, names: [f.first, f.last], dates: [f.start, f.end] })),
    })),
  }));
  const stations = Object.entries(manifest.stations.partitions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  tables.push({
    name: STATION_TABLE,
    kind: 'name',
    fields: stationFields(),
    key: 'STA_NAME',
    groups: stations
      .filter(([, p]) => p.rows > 0)
      .map(([name, p]) => ({
        key: name,
        value: name,
        files: [{ path: p.path, rows: p.rows, bytes: p.bytes, names: [name, name], dates: [p.start, p.end] }],
      })),
  });
  tables.push(metadataTable(RESERVOIR_METADATA_TABLE, 'RES_NAME', manifest.reservoirs.metadata, manifest.reservoirs.names));
  tables.push(metadataTable(STATION_METADATA_TABLE, 'STA_NAME', manifest.stations.metadata, manifest.stations.names));
  tables.push(forecastTable(manifest, FORECAST_TABLE, forecastFields(), (m) => [m.stats, ...(m.members ? [m.members] : [])]));
  tables.push(forecastTable(manifest, FORECAST_TOTALS_TABLE, forecastTotalsFields(), (m) => (m.totals ? [m.totals] : [])));
  return tables;
}

// the forecasts' files (an issue's, or a month's in stores written before) grouped by the year of their issue dates
// (the tables are partitioned by year(issued))
function forecastTable(manifest: Manifest, name: string, fields: TableField[], filesOf: (entry: ForecastMonth) => ForecastFile[]): SnapshotTable {
  const groups: TableGroup[] = [];
  for (const entry of manifest.forecasts ?? []) {
    const year = Number(entry.month.slice(0, 4));
    let group = groups.at(-1);
    if (group?.key !== String(year)) groups.push((group = { key: String(year), value: year - 1970, files: [] }));
    for (const f of filesOf(entry)) group.files.push({ path: f.path, rows: f.rows, bytes: f.bytes, dates: [f.start, f.end] });
  }
  return { name, kind: 'year', fields, key: 'RES_NAME', groups: groups.filter((g) => g.files.length > 0) };
}

function metadataTable(name: string, key: 'RES_NAME' | 'STA_NAME', file: FileEntry | null, names: readonly string[]): SnapshotTable {
  const bounds: [string, string] | undefined = names.length > 0 ? [names[0]!, names[names.length - 1]!] : undefined;
  return {
    name,
    kind: 'none',
    fields: undefined,
    key,
    groups: file ? [{ key: '', value: null, files: [{ path: file.path, rows: file.rows, bytes: file.bytes, names: bounds }] }] : [],
  };
}

/** The lower and upper bounds of a file's name (field 1) and date (field 2), serialized as Iceberg reads them. */
export function fileBounds(file: TableFile): { lower: Map<number, Uint8Array>; upper: Map<number, Uint8Array> } {
  const lower = new Map<number, Uint8Array>();
  const upper = new Map<number, Uint8Array>();
  const text = (t: string) => new TextEncoder().encode(t);
  const day = (d: string) => {
    const out = new Uint8Array(4);
    new DataView(out.buffer).setInt32(0, parseDay(d, 'date'), true);
    return out;
  };
  if (file.names) {
    lower.set(1, text(file.names[0]));
    upper.set(1, text(file.names[1]));
  }
  if (file.dates && file.dates[0] !== '') {
    lower.set(2, day(file.dates[0]));
    upper.set(2, day(file.dates[1]));
  }
  return { lower, upper };
}
