// The rows a writer takes and a reader of a snapshot's files gives back (its own file: both sides import it).

/**
 * One dataset-year of reservoir rows, sorted by name then date; values metric, NaN for gaps. `values` may also hold the
 * per-day flag columns `qflag` and `status` as codes (flags.ts encodeFlags); they are written as text.
 */
export interface ReservoirRows {
  names: readonly string[];
  days: Int32Array;
  values: Record<string, Float64Array>;
}

/** One station's rows, sorted by date; values metric, NaN for gaps; `status` codes may come among the values. */
export interface StationRows {
  days: Int32Array;
  values: Record<string, Float64Array>;
}
