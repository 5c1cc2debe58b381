// Q1-Q7, defined once: as a library query, as the equivalent DuckDB SQL over the same Parquet files, and as an HTTP path.
import { join } from 'node:path';
import {
  type DatasetName,
  datasetNames,
  findReservoirVariable,
  findStationVariable,
  reservoirDatasets,
  stationVariableNames,
  variableKey,
} from '../lib/catalogue.js';
import { recordsToCsv } from '../lib/format/csv.js';
import type { RecordStream } from '../lib/format/stream.js';
import type { EvapStore } from '../lib/open/store.js';
import { type OperationName, pathOf, toWire } from '../lib/operations.js';
import { encodePathName, type Manifest } from '../lib/store/manifest.js';
import type { WireRecord } from '../lib/types.js';

/** What a query asks for, in the library's terms; SQL and HTTP forms are derived from it. */
export type QuerySpec =
  | { kind: 'reservoir-range'; names: string[]; datasets: DatasetName[]; variables: string[]; start: string; end: string; everyName?: boolean } // everyName: SQL without a name list
  | { kind: 'reservoir-date'; datasets: DatasetName[]; variables: string[]; date: string }
  | { kind: 'station-range'; names: string[]; variables: string[]; start: string; end: string }
  | { kind: 'station-date'; variables: string[]; date: string };

export interface BenchQuery {
  id: string; // Q1..Q7
  title: string;
  format: 'json' | 'csv'; // how the answer leaves: JSON records or CSV text
  spec: QuerySpec;
  http: boolean; // driven with autocannon
}

/** An answer of the library: the records and the columns a CSV header shows. */
export interface Answer {
  records: WireRecord[];
  columns: string[];
}

/** The store's last year of reservoir rows (the one table's queries ask it at every scale). */
export function lastYearOf(manifest: Manifest): number {
  return manifest.datasets['nete-volume-calcs']!.partitions.at(-1)!.year;
}

/**
 * The seven queries of issue 5, on names and dates that the given store holds: the dated ones in `year` (Q5: the year
 * before it too), 2020 by default.
 */
export function defineQueries(manifest: Manifest, year = 2020): BenchQuery[] {
  const reservoirs = manifest.reservoirs.names;
  const pick = (preferred: readonly string[], count: number) => {
    const chosen = preferred.filter((n) => reservoirs.includes(n));
    for (const n of reservoirs) if (chosen.length < count && !chosen.includes(n)) chosen.push(n);
    return chosen.slice(0, count).sort();
  };
  const [one] = pick(['LAKE MEAD'], 1);
  const three = pick(['LAKE MEAD', 'LAKE POWELL', 'ELEPHANT BUTTE RESERVOIR'], 3);
  const nete = manifest.datasets['nete-volume-calcs']!.partitions;
  const whole = {
    start: nete.reduce((a, p) => (p.start < a ? p.start : a), nete[0]!.start),
    end: nete.reduce((a, p) => (p.end > a ? p.end : a), nete[0]!.end),
  };
  const station = pickStation(manifest, year);
  const stationVars = heldInOrder(manifest, [station]).slice(0, 10);
  const all = (datasets: DatasetName[]) => datasets.flatMap((d) => Object.keys(reservoirDatasets[d].variables));
  return [
    {
      id: 'Q1',
      title: 'one reservoir, nete-volume-calcs, NetE + E_volume, one year',
      format: 'json',
      http: true,
      spec: {
        kind: 'reservoir-range',
        names: [one!],
        datasets: ['nete-volume-calcs'],
        variables: ['NetE', 'E_volume'],
        start: `${year}-01-01`,
        end: `${year}-12-31`,
      },
    },
    {
      id: 'Q2',
      title: 'three reservoirs, rtma + nete-volume-calcs, five variables, three months',
      format: 'json',
      http: true,
      spec: {
        kind: 'reservoir-range',
        names: three,
        datasets: ['rtma', 'nete-volume-calcs'],
        variables: ['pr', 'tmmx_c', 'eto', 'NetE', 'E_volume'],
        start: `${year}-06-01`,
        end: `${year}-08-31`,
      },
    },
    {
      id: 'Q3',
      title: 'all reservoirs on one date, rtma + nete-volume-calcs (14 variables)',
      format: 'json',
      http: true,
      spec: { kind: 'reservoir-date', datasets: ['rtma', 'nete-volume-calcs'], variables: all(['rtma', 'nete-volume-calcs']), date: `${year}-07-01` },
    },
    {
      id: 'Q4',
      title: `one reservoir, all 24 variables, ${whole.start}..${whole.end}, CSV`,
      format: 'csv',
      http: false,
      spec: { kind: 'reservoir-range', names: [one!], datasets: [...datasetNames], variables: all([...datasetNames]), start: whole.start, end: whole.end },
    },
    {
      id: 'Q5',
      title: `one station, ${stationVars.length} variables, two years`,
      format: 'json',
      http: true,
      spec: { kind: 'station-range', names: [station], variables: stationVars, start: `${year - 1}-01-01`, end: `${year}-12-31` },
    },
    {
      id: 'Q6',
      title: `all stations on one date (${heldInOrder(manifest, manifest.stations.names).length} variables)`,
      format: 'json',
      http: false,
      spec: { kind: 'station-date', variables: heldInOrder(manifest, manifest.stations.names), date: `${year}-07-01` },
    },
    {
      id: 'Q7',
      title: `every reservoir (${reservoirs.length}), NetE, one year`,
      format: 'json',
      http: false,
      spec: everyReservoirForAYear(year),
    },
  ];
}

// A station with at least ten variables over the two years to `year` (a store of one year: over `year`) and the most
// rows (ties: name order), preferring LAKE MEAD_STATION.
function pickStation(manifest: Manifest, year: number): string {
  const over = (from: string) =>
    Object.entries(manifest.stations.partitions).filter(([, p]) => p.variables.length >= 10 && p.start <= from && p.end >= `${year}-12-31`);
  const two = over(`${year - 1}-01-01`);
  const entries = two.length > 0 ? two : over(`${year}-01-01`);
  const preferred = entries.find(([n]) => n === 'LAKE MEAD_STATION');
  if (preferred) return preferred[0];
  entries.sort((a, b) => b[1].rows - a[1].rows || (a[0] < b[0] ? -1 : 1));
  if (entries.length === 0) throw new Error(`the bench store has no station with ten variables over ${year - 1}-${year}`);
  return entries[0]![0];
}

/** Q7: every reservoir's NetE over a year, every name from the store (44,000 of them fit neither a command line nor an IN list). */
export function everyReservoirForAYear(year: number): QuerySpec {
  return {
    kind: 'reservoir-range',
    names: [],
    datasets: ['nete-volume-calcs'],
    variables: ['NetE'],
    start: `${year}-01-01`,
    end: `${year}-12-31`,
    everyName: true,
  };
}

// The variables some of the stations hold, in catalogue order (what the library defaults to).
export function heldInOrder(manifest: Manifest, names: readonly string[]): string[] {
  const held = new Set(names.flatMap((n) => manifest.stations.partitions[n]?.variables ?? []));
  return stationVariableNames.filter((v) => held.has(v));
}

/** The library's answer: the query's stream, collected. */
export async function answerOurs(store: EvapStore, spec: QuerySpec): Promise<Answer> {
  const stream = streamOurs(store, spec);
  const records: WireRecord[] = [];
  for await (const batch of stream.batches) for (const r of batch) records.push(r);
  return { records, columns: stream.columns };
}

/** The library's stream for a query. */
export function streamOurs(store: EvapStore, spec: QuerySpec): RecordStream {
  switch (spec.kind) {
    case 'reservoir-range': {
      const names = spec.everyName ? store.manifest.reservoirs.names : spec.names;
      return store.streamReservoirTimeseries({ names, datasets: spec.datasets, variables: spec.variables, start: spec.start, end: spec.end });
    }
    case 'reservoir-date':
      return store.streamReservoirTimeseriesOnDate({ datasets: spec.datasets, variables: spec.variables, date: spec.date });
    case 'station-range':
      return store.streamStationTimeseries({ names: spec.names, variables: spec.variables, start: spec.start, end: spec.end });
    case 'station-date':
      return store.streamStationTimeseriesOnDate({ variables: spec.variables, date: spec.date });
  }
}

/** The text the server sends, as it makes it: JSON or CSV straight from the columns (RecordStream.json / csv). */
export async function textOurs(store: EvapStore, spec: QuerySpec, format: 'json' | 'csv'): Promise<string> {
  const stream = streamOurs(store, spec);
  let text = '';
  for await (const chunk of format === 'csv' ? stream.csv() : stream.json()) text += chunk;
  return text;
}

/**
 * The characters of a JSON or CSV answer and its record count (CSV: its lines after the header), without holding the
 * text (answers of 44,000 names are large); `countMs`, the time the counting itself took (a scan of every chunk: a
 * third of a cold Q7), for a timing of the answer alone to leave out.
 */
export async function textLength(chunks: AsyncIterable<string>, format: 'json' | 'csv'): Promise<{ length: number; records: number; countMs: number }> {
  const [mark, less] = format === 'json' ? ['"start_date"', 0] : ['\n', 1]; // a record's key; a CSV line, the header's less
  let length = 0;
  let marks = 0;
  let countMs = 0;
  for await (const chunk of chunks) {
    length += chunk.length;
    const began = performance.now();
    for (let i = chunk.indexOf(mark); i >= 0; i = chunk.indexOf(mark, i + 1)) marks++;
    countMs += performance.now() - began;
  }
  return { length, records: Math.max(0, marks - less), countMs };
}

/** The characters of a JSON answer and its record count. */
export function jsonLength(chunks: AsyncIterable<string>): Promise<{ length: number; records: number; countMs: number }> {
  return textLength(chunks, 'json');
}

/** The bytes that would leave: JSON text of the records, or CSV text under the columns. */
export function serialize(format: 'json' | 'csv', answer: Answer): string {
  return format === 'csv' ? recordsToCsv(answer.records, answer.columns) : JSON.stringify(answer.records);
}

/**
 * SQL run once per DuckDB connection: r4 is the wire's 4-decimal rounding with NaN as null; c4 is the same value as the
 * wire's CSV text (DuckDB's CSV writer prints 0 as 0.0 and -0 as -0.0 where JavaScript prints 0).
 */
export const duckdbSetup = [
  `create or replace macro r4(x) as case when isnan(x) then null else round(x, 4) end`,
  `create or replace macro c4(x) as case when isnan(x) then null when round(x, 4) = 0 then '0' else regexp_replace(round(x, 4)::varchar, '\\.0$', '') end`,
];

/** DuckDB SQL over the store's Parquet files giving the same records (same keys, values, order) as the library. */
export function duckdbSql(root: string, spec: QuerySpec, format: 'json' | 'csv' = 'json'): string {
  const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;
  const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;
  const day = (column: string) => `strftime(${column}, '%Y-%m-%d')`;
  const wire = (v: string, unit: Parameters<typeof variableKey>[1]) =>
    `${format === 'csv' ? 'c4' : 'r4'}(${ident(v)}) as ${ident(variableKey(v, unit, 'metric'))}`;
  const reservoirs = (datasets: DatasetName[], variables: string[], where: string) => {
    const used = datasets.filter((d) => variables.some((v) => findReservoirVariable(v)?.dataset === d));
    const ctes = used.map((d, i) => {
      const columns = variables.filter((v) => findReservoirVariable(v)!.dataset === d).map(ident);
      const glob = join(root, 'reservoirs', `dataset=${d}`, 'year=*', '*.parquet');
      return `d${i} as (select RES_NAME, date, ${columns.join(', ')} from read_parquet(${lit(glob)}, hive_partitioning = true) where ${where})`;
    });
    const from = used.map((_, i) => (i === 0 ? 'd0' : `full join d${i} using (RES_NAME, date)`)).join(' ');
    const values = variables.map((v) => wire(v, findReservoirVariable(v)!.spec.unit));
    return `with ${ctes.join(',\n')}\nselect RES_NAME, ${day('date')} as start_date, ${day('date')} as end_date, ${values.join(', ')}\nfrom ${from}\norder by RES_NAME, date`;
  };
  const stationValues = (variables: string[]) => variables.map((v) => wire(v, findStationVariable(v)!.unit)).join(', ');
  switch (spec.kind) {
    case 'reservoir-range': {
      const years = `year between ${spec.start.slice(0, 4)} and ${spec.end.slice(0, 4)}`;
      const names = spec.everyName ? '' : `RES_NAME in (${spec.names.map(lit).join(', ')}) and `;
      return reservoirs(spec.datasets, spec.variables, `${names}${years} and date between DATE ${lit(spec.start)} and DATE ${lit(spec.end)}`);
    }
    case 'reservoir-date':
      return reservoirs(spec.datasets, spec.variables, `year = ${spec.date.slice(0, 4)} and date = DATE ${lit(spec.date)}`);
    case 'station-range': {
      const parts = spec.names.map((n) => {
        const glob = join(root, 'stations', `station=${encodePathName(n)}`, '*.parquet');
        return `select ${lit(n)} as STA_NAME, ${day('date')} as start_date, ${day('date')} as end_date, ${stationValues(spec.variables)}, date from read_parquet(${lit(glob)}) where date between DATE ${lit(spec.start)} and DATE ${lit(spec.end)}`;
      });
      return `select * exclude (date) from (${parts.join('\nunion all\n')}) order by STA_NAME, date`;
    }
    case 'station-date': {
      const glob = join(root, 'stations', 'station=*', '*.parquet');
      return `select station as STA_NAME, ${day('date')} as start_date, ${day('date')} as end_date, ${stationValues(spec.variables)}
from read_parquet(${lit(glob)}, hive_partitioning = true, union_by_name = true, hive_types_autocast = false) where date = DATE ${lit(spec.date)} order by station`;
    }
  }
}

/** A query as the operation of the table it is and that operation's options. */
function operationOf(spec: QuerySpec): [OperationName, object] {
  switch (spec.kind) {
    case 'reservoir-range':
      return ['reservoirTimeseries', { names: spec.names, datasets: spec.datasets, variables: spec.variables, start: spec.start, end: spec.end }];
    case 'reservoir-date':
      return ['reservoirTimeseriesOnDate', { datasets: spec.datasets, variables: spec.variables, date: spec.date }];
    case 'station-range':
      return ['stationTimeseries', { names: spec.names, variables: spec.variables, start: spec.start, end: spec.end }];
    case 'station-date':
      return ['stationTimeseriesOnDate', { variables: spec.variables, date: spec.date }];
  }
}

/** The server path and query string of a query, as the operations table writes it (the remote client's way). */
export function httpTarget(spec: QuerySpec, format: 'json' | 'csv'): string {
  const [operation, options] = operationOf(spec);
  const params = new URLSearchParams();
  const wire = toWire(operation, { ...options, ...(format === 'csv' ? { format } : {}) });
  for (const [name, value] of Object.entries(wire)) if (value !== undefined) params.set(name, typeof value === 'string' ? value : value.join(','));
  return `${pathOf(operation)}?${params.toString()}`;
}
