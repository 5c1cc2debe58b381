// ClickHouse (chdb, embedded) over the store's own Iceberg tables: the one table's queries as ClickHouse SQL with the
// wire's rounding, and answers as ClickHouse's own JSON or CSV text. chdb reads local files under its process's working
// directory only, so each call runs with the working directory set to the store's parent folder.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { query } from 'chdb';
import { type DatasetName, findReservoirVariable, findStationVariable, variableKey } from '../lib/catalogue.js';
import { datasetTable, STATION_TABLE } from '../lib/tables/fields.js';
import type { WireRecord } from '../lib/types.js';
import type { QuerySpec } from './queries.js';

const lit = (s: string) => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const ident = (s: string) => `\`${s.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``;
// the wire's 4-decimal rounding with NaN (and null) as null
const r4 = (column: string) => `if(isNaN(${column}), NULL, round(${column}, 4))`;

/**
 * ClickHouse SQL over the store's tables (`icebergLocal` of `<store>/tables/<table>`, the store named relative to its
 * parent folder, where chdb runs) giving the same records (keys, values, order) as the library.
 */
export function clickhouseSql(storeDir: string, spec: QuerySpec): string {
  const table = (name: string) => `icebergLocal(${lit(`${basename(storeDir)}/tables/${name}`)})`;
  const wire = (v: string, key: string) => `${r4(ident(v))} as ${ident(key)}`;
  const reservoirs = (datasets: DatasetName[], variables: string[], where: string) => {
    const used = datasets.filter((d) => variables.some((v) => findReservoirVariable(v)?.dataset === d));
    const key = (v: string) => variableKey(v, findReservoirVariable(v)!.spec.unit, 'metric');
    if (used.length === 1) {
      const values = variables.map((v) => wire(v, key(v)));
      return `select RES_NAME, toString(date) as start_date, toString(date) as end_date, ${values.join(', ')} from ${table(datasetTable(used[0]!))} where ${where} order by RES_NAME, date`;
    }
    // several tables: each one's rows with nulls for the others' columns, one row per name and date (a column is of
    // one table only, so max() is that table's value or null; rows of one table alone stay, as a full join keeps them)
    const parts = used.map((d) => {
      const columns = variables.map((v) => (findReservoirVariable(v)!.dataset === d ? wire(v, key(v)) : `CAST(NULL, 'Nullable(Float64)') as ${ident(key(v))}`));
      return `select RES_NAME, date, ${columns.join(', ')} from ${table(datasetTable(d))} where ${where}`;
    });
    const values = variables.map((v) => `max(${ident(key(v))}) as ${ident(key(v))}`);
    return `select RES_NAME, toString(date) as start_date, toString(date) as end_date, ${values.join(', ')} from (${parts.join(' union all ')}) group by RES_NAME, date order by RES_NAME, date`;
  };
  const stationValues = (variables: string[]) => variables.map((v) => wire(v, variableKey(v, findStationVariable(v)!.unit, 'metric'))).join(', ');
  const stations = (variables: string[], where: string) =>
    `select STA_NAME, toString(date) as start_date, toString(date) as end_date, ${stationValues(variables)} from ${table(STATION_TABLE)} where ${where} order by STA_NAME, date`;
  const names = (list: string[]) => `(${list.map(lit).join(', ')})`;
  switch (spec.kind) {
    case 'reservoir-range': {
      const only = spec.everyName ? '' : `RES_NAME in ${names(spec.names)} and `;
      return reservoirs(spec.datasets, spec.variables, `${only}date between toDate32(${lit(spec.start)}) and toDate32(${lit(spec.end)})`);
    }
    case 'reservoir-date':
      return reservoirs(spec.datasets, spec.variables, `date = toDate32(${lit(spec.date)})`);
    case 'station-range':
      return stations(spec.variables, `STA_NAME in ${names(spec.names)} and date between toDate32(${lit(spec.start)}) and toDate32(${lit(spec.end)})`);
    case 'station-date':
      return stations(spec.variables, `date = toDate32(${lit(spec.date)})`);
  }
}

/** chdb run in the store's parent folder (where it may read files), the working directory put back after. */
function inParentOf<T>(storeDir: string, run: () => T): T {
  const before = process.cwd();
  process.chdir(dirname(storeDir));
  try {
    return run();
  } finally {
    process.chdir(before);
  }
}

/**
 * The whole answer as ClickHouse's own text, written to `path` as DuckDB's COPY writes its file (`FORMAT JSON`: an
 * object whose `data` is the records; or CSV with a header): a string of a year of 44,000 reservoirs (16 million
 * records, 1.3 GB) is past what V8 holds, and chdb's in-process call then failed with "Invalid argument".
 */
export function clickhouseFile(storeDir: string, sql: string, format: 'json' | 'csv', path: string): void {
  inParentOf(storeDir, () => query(`${sql} INTO OUTFILE ${lit(path)} TRUNCATE FORMAT ${format === 'csv' ? 'CSVWithNames' : 'JSON'}`, 'CSV'));
}

/** The records of a file made by clickhouseFile (JSON: its `rows`, near its end; CSV: its lines after the header). */
export async function clickhouseRecords(path: string, format: 'json' | 'csv'): Promise<number> {
  if (format === 'csv') {
    let lines = 0;
    for await (const chunk of createReadStream(path)) for (let i = (chunk as Buffer).indexOf(10); i >= 0; i = (chunk as Buffer).indexOf(10, i + 1)) lines++;
    return Math.max(0, lines - 1);
  }
  const file = await open(path);
  try {
    const { size } = await file.stat();
    const tail = Buffer.alloc(Math.min(size, 4096));
    await file.read(tail, 0, tail.length, size - tail.length);
    const rows = /"rows":\s*(\d+)/.exec(tail.toString('utf8'));
    if (!rows) throw new Error('ClickHouse JSON without "rows"');
    return Number(rows[1]);
  } finally {
    await file.close();
  }
}

/** The answer's records as ClickHouse gives them (JSONEachRow), parsed: to compare with the library's. */
export function clickhouseAnswer(storeDir: string, sql: string): WireRecord[] {
  const text = inParentOf(storeDir, () => query(sql, 'JSONEachRow'));
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as WireRecord);
}
