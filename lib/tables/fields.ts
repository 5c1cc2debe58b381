// The store's tables and their columns' Iceberg field ids: the same ids go into every Parquet file the writer makes
// (Arrow field metadata `PARQUET:field_id`) and into each table's schema, so engines match columns by id, not by name.
import { type DatasetName, datasetNames, reservoirAttributes, reservoirDatasets, stationAttributes, stationVariableNames } from '../catalogue.js';
import { WriterMisuseError } from '../errors.js';
import { forecastVariables } from '../forecast-variables.js';

/** An Iceberg column of a table: its id, name and type (every column is optional: a gap is a null). */
export interface TableField {
  id: number;
  name: string;
  type: 'string' | 'date' | 'double' | 'int';
}

/** Arrow field metadata key that parquet writers turn into the Parquet schema's field_id. */
export const FIELD_ID_KEY = 'PARQUET:field_id';

/** The table of one reservoir dataset, e.g. `reservoir_nete_volume_calcs`. */
export function datasetTable(dataset: DatasetName): string {
  return `reservoir_${dataset.replaceAll('-', '_')}`;
}

export const STATION_TABLE = 'station_timeseries';
export const RESERVOIR_METADATA_TABLE = 'reservoir_metadata';
export const STATION_METADATA_TABLE = 'station_metadata';

export const FORECAST_TABLE = 'reservoir_forecasts';
export const FORECAST_TOTALS_TABLE = 'reservoir_forecast_totals';

/** Every table of a store, in the order they are listed and published. */
export const tableNames: readonly string[] = [
  ...datasetNames.map(datasetTable),
  STATION_TABLE,
  RESERVOIR_METADATA_TABLE,
  STATION_METADATA_TABLE,
  FORECAST_TABLE,
  FORECAST_TOTALS_TABLE,
];

/**
 * The columns of the forecasts' table: a row per reservoir, issue, lead and statistic (or member, m01...), the day's
 * value of each variable and, on statistics' rows, the statistic of the total over leads 1..lead_days (`<variable>_total`).
 */
export function forecastFields(): TableField[] {
  const fixed: TableField[] = [
    { id: 1, name: 'RES_NAME', type: 'string' },
    { id: 2, name: 'issued', type: 'date' },
    { id: 3, name: 'valid_date', type: 'date' },
    { id: 4, name: 'lead_days', type: 'int' },
    { id: 5, name: 'statistic', type: 'string' },
  ];
  const values = forecastVariables.flatMap((v) => [v, `${v}_total`]);
  return [...fixed, ...values.map((name, i): TableField => ({ id: fixed.length + 1 + i, name, type: 'double' }))];
}

/**
 * The columns of the forecasts' totals table (lib/forecast/totals.ts): a row per reservoir, issue, window of leads
 * (1..lead_days, whole weeks) and statistic, the statistic of each variable's total over that window. `issued` is
 * field 2, as the date is in every table partitioned by year.
 */
export function forecastTotalsFields(): TableField[] {
  const fixed: TableField[] = [
    { id: 1, name: 'RES_NAME', type: 'string' },
    { id: 2, name: 'issued', type: 'date' },
    { id: 3, name: 'lead_days', type: 'int' },
    { id: 4, name: 'statistic', type: 'string' },
  ];
  return [...fixed, ...forecastVariables.map((v, i): TableField => ({ id: fixed.length + 1 + i, name: `${v}_total`, type: 'double' }))];
}

// Ids are fixed by position: names, date and flags first, then variables in catalogue order. A new variable must be
// appended to its dataset in the catalogue (test/lib/tables/fields.test.ts pins the ids of the existing ones).
const reservoirFixed: TableField[] = [
  { id: 1, name: 'RES_NAME', type: 'string' },
  { id: 2, name: 'date', type: 'date' },
  { id: 3, name: 'qflag', type: 'string' },
  { id: 4, name: 'status', type: 'string' },
];
const stationFixed: TableField[] = [
  { id: 1, name: 'STA_NAME', type: 'string' },
  { id: 2, name: 'date', type: 'date' },
  { id: 3, name: 'status', type: 'string' },
];

/** The columns of a reservoir dataset's table. */
export function datasetFields(dataset: DatasetName): TableField[] {
  const variables = Object.keys(reservoirDatasets[dataset].variables);
  return [...reservoirFixed, ...variables.map((name, i): TableField => ({ id: reservoirFixed.length + 1 + i, name, type: 'double' }))];
}

/** The columns of the station timeseries table: every station variable, null where a station lacks it. */
export function stationFields(): TableField[] {
  return [...stationFixed, ...stationVariableNames.map((name, i): TableField => ({ id: stationFixed.length + 1 + i, name, type: 'double' }))];
}

/**
 * Ids of a metadata table's columns: the catalogue's attributes by position (1 is the name), any other attribute an id
 * made from its name and type (so a column whose type changes gets a new id, as Iceberg requires), above 1000.
 */
export function metadataFieldIds(key: 'RES_NAME' | 'STA_NAME', columns: readonly { name: string; type: TableField['type'] }[]): TableField[] {
  const known: readonly string[] = key === 'RES_NAME' ? reservoirAttributes : stationAttributes;
  const taken = new Set<number>();
  const fields = columns.map((c) => {
    const at = known.indexOf(c.name);
    const fixedType = c.name === key || c.type === (numericAttributes.has(c.name) ? 'double' : 'string');
    return { ...c, id: at >= 0 && fixedType ? at + 1 : 0 };
  });
  for (const f of fields) if (f.id > 0) taken.add(f.id);
  for (const f of fields) {
    if (f.id > 0) continue;
    let id = 1000 + (fnv1a(`${f.name}:${f.type}`) % 1_000_000);
    while (taken.has(id)) id++;
    taken.add((f.id = id));
  }
  return fields;
}

// the catalogue's numeric attributes: the others (names, state, types, flags) are text
const numericAttributes = new Set(['LAT', 'LON', 'Shape_Area', 'ELEV_M', 'MAX_DEPTH_M', 'CAPACITY_M3']);

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/** The ids of the columns a data file holds, by name (a column the table does not know is an error of the writer). */
export function fieldIdsOf(fields: readonly TableField[], names: readonly string[]): Map<string, number> {
  const byName = new Map(fields.map((f) => [f.name, f.id]));
  return new Map(
    names.map((n) => {
      const id = byName.get(n);
      if (id === undefined) throw new WriterMisuseError(`column ${n} is not a column of its table`);
      return [n, id];
    }),
  );
}
