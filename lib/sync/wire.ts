// The wire parameters of the timeseries queries, once: the server's routes read them and the remote client sends them
// from this table, so a wire name and its library option cannot drift apart.
import type { ReservoirDateQuery, ReservoirRangeQuery, StationDateQuery, StationRangeQuery } from '../types.js';

type AnyQuery = ReservoirRangeQuery & ReservoirDateQuery & StationRangeQuery & StationDateQuery;

/** One query parameter of the wire and the library option it carries. */
export interface WireParameter {
  option: keyof AnyQuery;
  shape: 'one' | 'list'; // a list travels comma-separated
  limit?: 'names' | 'values'; // which per-request limit a list counts against (the server's configuration sets both)
}

export const wireParameters = {
  RES_NAMES: { option: 'names', shape: 'list', limit: 'names' },
  STA_NAMES: { option: 'names', shape: 'list', limit: 'names' },
  datasets: { option: 'datasets', shape: 'list', limit: 'values' },
  variables: { option: 'variables', shape: 'list', limit: 'values' },
  units: { option: 'units', shape: 'one' },
  start_date: { option: 'start', shape: 'one' },
  end_date: { option: 'end', shape: 'one' },
  date: { option: 'date', shape: 'one' },
  also_return: { option: 'alsoReturn', shape: 'list', limit: 'values' },
  as_of: { option: 'asOf', shape: 'one' },
} as const satisfies Record<string, WireParameter>;

export type WireName = keyof typeof wireParameters;

/** The parameters of each timeseries path, in the order the client sends them. */
export const timeseriesWire = {
  reservoirRange: ['RES_NAMES', 'datasets', 'variables', 'units', 'start_date', 'end_date', 'also_return', 'as_of'],
  reservoirDate: ['datasets', 'variables', 'units', 'date', 'also_return', 'as_of'],
  stationRange: ['STA_NAMES', 'variables', 'units', 'start_date', 'end_date', 'also_return', 'as_of'],
  stationDate: ['variables', 'units', 'date', 'also_return', 'as_of'],
} as const satisfies Record<string, readonly WireName[]>;

/** A query's options under their wire names (undefined where left out), for the remote client. */
export function toWire(query: Partial<AnyQuery>, names: readonly WireName[]): Record<string, string | readonly string[] | undefined> {
  return Object.fromEntries(names.map((name) => [name, query[wireParameters[name].option]]));
}

/** A query's options as the wire carries them: lists split, single values as sent (any string: the library validates each). */
export type WireOptions = { [N in WireName as (typeof wireParameters)[N]['option']]?: (typeof wireParameters)[N]['shape'] extends 'list' ? string[] : string };

/** The options of a query from its wire values (`read.list` gives a list split, `read.one` a value as it is), for the server. */
export function fromWire(names: readonly WireName[], read: { one(name: string): string | undefined; list(name: string): string[] | undefined }): WireOptions {
  const options: WireOptions = {};
  for (const name of names) {
    const parameter = wireParameters[name];
    if (parameter.shape === 'list') options[parameter.option] = read.list(name);
    else options[parameter.option] = read.one(name);
  }
  return options;
}
