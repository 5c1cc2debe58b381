// Test aid: a table read two ways, by ClickHouse (chdb, the Iceberg reader of a real engine) and by the library
// (the writer's readback of the same snapshot), as sorted rows of JSON values that compare with toEqual.
import { mkdtemp, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { query } from 'chdb';
import { type DatasetName, datasetNames } from '../../../lib/catalogue.js';
import { formatDay } from '../../../lib/dates.js';
import { decodeFlag, type FlagColumn } from '../../../lib/flags.js';
import { issuesOf, readIssue } from '../../../lib/forecast/files.js';
import { ensembleStatistics } from '../../../lib/forecast/stats.js';
import { forecastVariables, MAX_LEAD, memberName } from '../../../lib/forecast-variables.js';
import type { StoreReader } from '../../../lib/open/store.js';
import { createReaderCaches, PartitionReader } from '../../../lib/store/partitions.js';
import { readReservoirPartition, readStationPartition, type SnapshotFiles } from '../../../lib/store/readback.js';
import {
  datasetFields,
  datasetTable,
  FORECAST_TABLE,
  FORECAST_TOTALS_TABLE,
  RESERVOIR_METADATA_TABLE,
  STATION_METADATA_TABLE,
  STATION_TABLE,
  stationFields,
} from '../../../lib/tables/fields.js';
import { cleanUp } from '../../helpers.js';

type Row = Record<string, unknown>;

/** A fresh folder under the working directory (chdb reads local files only there), removed after the test (or file). */
export function workDir(): Promise<string> {
  const made = mkdtemp(join(process.cwd(), '.tmp-tables-'));
  cleanUp(async () => rm(await made, { recursive: true, force: true }));
  return made;
}

/** A table's rows as ClickHouse reads them with icebergLocal, at a time (iceberg_timestamp_ms) or snapshot id if given. */
export function clickhouseRows(storeDir: string, table: string, timestampMs?: number, snapshotId?: number): Row[] {
  const path = relative(process.cwd(), join(storeDir, 'tables', table)).replaceAll("'", "\\'");
  const settings =
    snapshotId !== undefined
      ? ` SETTINGS iceberg_snapshot_id = ${snapshotId}`
      : timestampMs === undefined
        ? ''
        : ` SETTINGS iceberg_timestamp_ms = ${timestampMs}`;
  const text = query(`SELECT * FROM icebergLocal('${path}')${settings}`, 'JSONEachRow');
  return sortRows(
    text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Row),
  );
}

/** Every table's rows as the library reads the snapshot a store (or an as-of view) serves, by table name. */
export async function libraryTables(store: StoreReader): Promise<Map<string, Row[]>> {
  // the snapshot's files read back as the writer reads them, through a reader of their own
  const files: SnapshotFiles = { manifest: store.manifest, reader: new PartitionReader(store.storage, createReaderCaches(64 * 2 ** 20, 16 * 2 ** 20)) };
  const tables = new Map<string, Row[]>();
  const flag = (column: FlagColumn, code: number | undefined) => (code === undefined ? null : decodeFlag(column, code));
  const num = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? null : v);
  for (const dataset of datasetNames as DatasetName[]) {
    const fields = datasetFields(dataset);
    const rows: Row[] = [];
    for (const p of store.manifest.datasets[dataset]?.partitions ?? []) {
      const data = (await readReservoirPartition(files, dataset, p.year))!;
      for (let i = 0; i < data.days.length; i++) {
        const row: Row = {};
        for (const f of fields) {
          if (f.name === 'RES_NAME') row[f.name] = data.names[i];
          else if (f.name === 'date') row[f.name] = formatDay(data.days[i]!);
          else if (f.name === 'qflag' || f.name === 'status') row[f.name] = flag(f.name, data.values[f.name]?.[i]);
          else row[f.name] = num(data.values[f.name]?.[i]);
        }
        rows.push(row);
      }
    }
    tables.set(datasetTable(dataset), sortRows(rows));
  }
  const stationRows: Row[] = [];
  for (const name of Object.keys(store.manifest.stations.partitions)) {
    const data = await readStationPartition(files, name);
    for (let i = 0; i < (data?.days.length ?? 0); i++) {
      const row: Row = {};
      for (const f of stationFields()) {
        if (f.name === 'STA_NAME') row[f.name] = name;
        else if (f.name === 'date') row[f.name] = formatDay(data!.days[i]!);
        else if (f.name === 'status') row[f.name] = flag('status', data!.values.status?.[i]);
        else row[f.name] = num(data!.values[f.name]?.[i]);
      }
      stationRows.push(row);
    }
  }
  tables.set(STATION_TABLE, sortRows(stationRows));
  tables.set(RESERVOIR_METADATA_TABLE, sortRows(store.metadataRows('reservoirs')));
  tables.set(STATION_METADATA_TABLE, sortRows(store.metadataRows('stations')));
  tables.set(FORECAST_TABLE, sortRows(await forecastRows(store)));
  tables.set(FORECAST_TOTALS_TABLE, sortRows(await forecastTotalRows(store)));
  return tables;
}

/** The forecasts' table as the library reads it: a row per reservoir, issue, lead and statistic or kept member. */
async function forecastRows(store: StoreReader): Promise<Row[]> {
  const rows: Row[] = [];
  const num = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? null : v);
  for (const { month, issue } of issuesOf(store.manifest)) {
    const read = await readIssue(new PartitionReader(store.storage, createReaderCaches(0, 0)), month, issue, true);
    for (const [name, f] of read.byName) {
      for (let lead = 1; lead <= MAX_LEAD; lead++) {
        const base = { RES_NAME: name, issued: issue.issued, valid_date: formatDay(read.issued + lead), lead_days: lead };
        ensembleStatistics.forEach((statistic, s) => {
          const row: Row = { ...base, statistic };
          for (const v of forecastVariables) {
            row[v] = num(f.stats[v][s * MAX_LEAD + lead - 1]);
            row[`${v}_total`] = num(f.totals[v][s * MAX_LEAD + lead - 1]);
          }
          rows.push(row);
        });
        for (let m = 0; m < f.count; m++) {
          const row: Row = { ...base, statistic: memberName(m) };
          for (const v of forecastVariables) {
            row[v] = num(f.members![v][m * MAX_LEAD + lead - 1]);
            row[`${v}_total`] = null;
          }
          rows.push(row);
        }
      }
    }
  }
  return rows;
}

/**
 * The forecasts' totals table as the library reads the statistics files: for each issue written with a totals table,
 * a row per reservoir, whole week of leads and statistic, the statistic of each variable's total over leads 1..week.
 */
async function forecastTotalRows(store: StoreReader): Promise<Row[]> {
  const rows: Row[] = [];
  const num = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? null : v);
  for (const { month, issue } of issuesOf(store.manifest)) {
    if (!month.totals) continue;
    const read = await readIssue(new PartitionReader(store.storage, createReaderCaches(0, 0)), month, issue, false);
    for (const [name, f] of read.byName)
      for (const lead of [7, 14, 21, 28])
        ensembleStatistics.forEach((statistic, s) => {
          const row: Row = { RES_NAME: name, issued: issue.issued, lead_days: lead, statistic };
          for (const v of forecastVariables) row[`${v}_total`] = num(f.totals[v][s * MAX_LEAD + lead - 1]);
          rows.push(row);
        });
  }
  return rows;
}

export function sortRows(rows: Row[]): Row[] {
  const keyed = rows.map((r) => [JSON.stringify(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), r] as const);
  return keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}
