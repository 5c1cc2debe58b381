// output_format beyond JSON and CSV: Parquet and Arrow IPC for timeseries, GeoJSON for metadata and name listings.

import { defaults, outputFormats } from '../lib/catalogue.js';
import { InvalidParameterError } from '../lib/errors.js';
import { recordsToGeoJson } from '../lib/format/geojson.js';
import { tableToParquetOffThread } from '../lib/format/parquet-threads.js';
import { mayExceed, type RecordStream, tooManyValues } from '../lib/format/stream.js';
import { tableToArrowStreamInPieces } from '../lib/format/table-pieces.js';
import type { WireRecord } from '../lib/types.js';
import { listResponse, streamResponse } from './format.js';
import type { QueryParams } from './params.js';
import { WholeResponse } from './whole-response.js';

const timeseriesFormats = outputFormats.series;
const listFormats = outputFormats.places;
type TimeseriesFormat = (typeof timeseriesFormats)[number];
export type ListFormat = (typeof listFormats)[number];

/** Values (records x columns) a Parquet or Arrow answer may hold: it is built whole; 11 times the daily Q4 answer (one reservoir, 24 variables, 46 years). */
export const MAX_TABLE_VALUES = 5_000_000;

const parquetType = 'application/vnd.apache.parquet';
const arrowType = 'application/vnd.apache.arrow.stream';
const geojsonType = 'application/geo+json';

/** The `output_format` parameter among the formats a path offers (default json). */
export function readFormat<T extends string>(q: QueryParams, allowed: readonly T[]): T {
  const value = q.one('output_format') ?? defaults.output_format;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new InvalidParameterError(
      'output_format',
      `output_format must be one of ${allowed.join(', ')}; got ${JSON.stringify(value.slice(0, 40))}`,
      'not-allowed',
      value,
    );
  }
  return value as T;
}

/** Whether an answer in `format` is built whole before its first byte (Parquet, Arrow), not streamed (JSON, CSV). */
export function builtWhole(format: string | undefined): format is 'parquet' | 'arrow' {
  return format === 'parquet' || format === 'arrow';
}

/**
 * A timeseries answer: JSON or CSV streamed as before; Parquet or Arrow built whole from the records (same columns),
 * refused before anything is read when it could hold more than MAX_TABLE_VALUES, and built without holding the event
 * loop: the table a piece per turn, the Parquet file on a worker thread.
 */
export async function timeseriesAnswer(format: TimeseriesFormat, stream: RecordStream): Promise<Response> {
  if (!builtWhole(format)) return streamResponse(format, stream);
  if (mayExceed(stream, MAX_TABLE_VALUES)) throw tooManyValues(MAX_TABLE_VALUES); // before waiting for a turn, before any row is read
  const table = await stream.table(MAX_TABLE_VALUES);
  const bytes = format === 'parquet' ? await tableToParquetOffThread(table) : await tableToArrowStreamInPieces(table);
  return new WholeResponse(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': format === 'parquet' ? parquetType : arrowType } });
}

/** A metadata answer (or a name listing given as its names' metadata) as GeoJSON, or as JSON / CSV as before. */
export function metadataAnswer(
  format: ListFormat,
  value: unknown,
  records: readonly WireRecord[],
  columns: readonly string[],
  nameKey: string,
  located: () => readonly WireRecord[] = () => records,
): Response {
  if (format === 'geojson') return new WholeResponse(JSON.stringify(recordsToGeoJson(located(), nameKey)), { headers: { 'content-type': geojsonType } });
  return listResponse(format, value, records, columns);
}
