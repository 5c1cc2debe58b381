// Public shapes of queries and answers. Answers are the wire records of the OperEvap API.
/** One value of a wire record: names and dates are strings, measurements numbers, gaps null. */
export type WireValue = string | number | null;

/** One wire record: `{"RES_NAME": ..., "start_date": ..., "end_date": ..., "NetE (mm)": 0.8182}`. */
export type WireRecord = Record<string, WireValue>;

/** One metadata row of a reservoir or station, as a writer takes it: attribute name to value. */
export type MetadataRow = Record<string, WireValue>;

/** The four optional parts of an uploaded shapefile, as raw bytes. */
export interface ShapefileParts {
  shp?: Uint8Array | ArrayBuffer;
  dbf?: Uint8Array | ArrayBuffer;
  prj?: Uint8Array | ArrayBuffer;
  shx?: Uint8Array | ArrayBuffer;
}

/** What every timeseries query may set. */
export interface CommonQuery {
  variables?: readonly string[]; // default: every variable of the requested datasets (stations: all 38)
  units?: string; // 'metric' (default) or 'english', exactly so; any other value is refused with an InvalidParameterError naming units
  alsoReturn?: readonly string[]; // metadata attributes attached to every record, e.g. ['qflag'], or the day flags 'qflag' and 'status'
  asOf?: string; // answer from the snapshot current then: an ISO date (end of that day, UTC) or time (docs/flags-and-history.md)
}

/** What the daily queries may set besides. */
export interface DailyQuery extends CommonQuery {
  modifiedSince?: string; // only the records whose values differ from a snapshot's: its id or a time (lib/query/modified-since.ts); array methods only
}

/** Reservoir timeseries over an inclusive date range. */
export interface ReservoirRangeQuery extends DailyQuery {
  names?: readonly string[]; // default LAKE ALICE, LAKE ESTES (the public service's default)
  datasets?: readonly string[]; // default all four
  start?: string; // YYYY-MM-DD, default 2020-01-01
  end?: string; // YYYY-MM-DD, default 2020-01-31
}

/** Every reservoir on one date. */
export interface ReservoirDateQuery extends DailyQuery {
  datasets?: readonly string[];
  date?: string; // YYYY-MM-DD, default 2020-01-01
}

/** Station timeseries over an inclusive date range. */
export interface StationRangeQuery extends DailyQuery {
  names?: readonly string[]; // default LAKE MEAD_STATION, BLW_STATION
  start?: string;
  end?: string;
}

/** Every station on one date. */
export interface StationDateQuery extends DailyQuery {
  date?: string;
}

/** A variable as the info endpoints describe it; `api_name` is what queries take. (A type, so it is a WireRecord.) */
export type VariableInfo = {
  api_name: string;
  description: string;
  dataset: string;
  units_metric: string;
  units_english: string;
};

/** An inclusive range of dates with data. */
export type DateRange = {
  start_date: string;
  end_date: string;
};

/** A location that the spatial filter tests against a polygon. */
export interface NamedPoint {
  name: string;
  lat: number;
  lon: number;
}
