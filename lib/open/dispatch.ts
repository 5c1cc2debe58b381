// Each operation answering records and the reader's stream that answers it, one line each: the server's routes and
// the CLI's query and forecast call an operation through here, never by a method name made from a string.
// The map's type names every records operation of the table (lib/operations.ts), so tsc refuses a missing line, and
// each line passes the table's options to a stream method that must take them.
import type { RecordStream } from '../format/stream.js';
import { type OptionsOf, operations, type PathOptionsOf, type QueryOf, type RecordsMethods, type RecordsOperation } from '../operations.js';
import type { WireRecord } from '../types.js';
import type { StoreReader } from './store.js';

/** The options of a records operation's stream: the library's (the path's among them), not as_of nor modified_since. */
type StreamOptionsOf<O extends RecordsOperation> = OptionsOf<O> & PathOptionsOf<O>;

type StreamCalls = { [O in RecordsOperation]: (reader: StoreReader, options: StreamOptionsOf<O>) => RecordStream };

const streamCalls: StreamCalls = {
  reservoirTimeseries: (reader, options) => reader.streamReservoirTimeseries(options),
  reservoirTimeseriesOnDate: (reader, options) => reader.streamReservoirTimeseriesOnDate(options),
  stationTimeseries: (reader, options) => reader.streamStationTimeseries(options),
  stationTimeseriesOnDate: (reader, options) => reader.streamStationTimeseriesOnDate(options),
  reservoirAggregates: (reader, options) => reader.streamReservoirAggregates(options),
  stationAggregates: (reader, options) => reader.streamStationAggregates(options),
  reservoirNormals: (reader, options) => reader.streamReservoirNormals(options),
  stationNormals: (reader, options) => reader.streamStationNormals(options),
  forecastDaily: (reader, options) => reader.streamForecastDaily(options),
  forecastLead: (reader, options) => reader.streamForecastLead(options),
  forecastTotal: (reader, options) => reader.streamForecastTotal(options),
  forecastVerification: (reader, options) => reader.streamForecastVerification(options),
  reservoirModel: (reader, options) => reader.streamReservoirModel(options),
};

/** The records operations of the table, in its order. */
export const recordsOperations = (Object.keys(operations) as (keyof typeof operations)[]).filter(
  (o): o is RecordsOperation => operations[o].answer === 'records',
);

/** A reader's stream of a records operation (options checked as the stream starts). */
export function streamOf<O extends RecordsOperation>(reader: StoreReader, operation: O, options: StreamOptionsOf<O>): RecordStream {
  return streamCalls[operation](reader, options);
}

/** The whole answer of a records operation from a store, a view or a client, by its array method. */
export function recordsOf<O extends RecordsOperation>(source: RecordsMethods, operation: O, options: QueryOf<O>): Promise<WireRecord[]> {
  const methods: RecordsMethods = source;
  return methods[operation](options);
}
