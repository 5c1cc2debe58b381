// evap query: reservoir or station timeseries with the API's names and values, from a store or a server.
import type { RecordStream } from '../../lib/format/stream.js';
import { recordsOf, streamOf } from '../../lib/open/dispatch.js';
import type { RecordsOperation } from '../../lib/operations.js';
import type { WireRecord } from '../../lib/types.js';
import { choiceFlag, type Flags, optionFlags, optionsFromFlags, readArgs, stringFlag } from '../args.js';
import { UsageError } from '../command.js';
import { describeEmpty, describeUnmeasured, watchText } from '../empty.js';
import type { CliIo } from '../io.js';
import { chooseFormat, formatUsage, writeRecords, writeText } from '../output.js';
import { openSource, provenanceMetadata, type Source, sourceFlags, sourceUsage } from '../source.js';

export const usage = `evap query [reservoirs|stations] [--names A,B] [--start DATE --end DATE | --date DATE] [options]
  Timeseries as the API's /timeseries paths answer them: one record per name and date.
  reservoirs | stations   what to query (default reservoirs)
  --names "A,B"           reservoir or station names (default as the API: LAKE ALICE, LAKE ESTES); ALL for every one
  --datasets A,B          reservoir datasets: rtma, res, lem, nete-volume-calcs (default all)
  --variables A,B         variables (default every variable of the datasets; for stations what they measure)
  --start DATE --end DATE a date range, YYYY-MM-DD, inclusive (default 2020-01-01 to 2020-01-31)
  --date DATE             every reservoir (or station) on one date instead
  --units U               metric (default) or english
  --also-return A,B       attributes added to every record: qflag and status (the day's flags), or metadata
  --as-of TIME            the data as published then: an ISO date (end of that day, UTC) or time
  --modified-since ID|TIME  (daily) only the records whose values changed since that snapshot (docs/flags-and-history.md)
  --interval I            daily (default), monthly, annual or water-year (October-September, named by its end year)
  --statistic S           with an aggregate interval: sum, mean, min or max for every variable (default: each its own)
  --compare-to normal     with --interval monthly: adds each value's percent of its calendar month's normal
  --base-start DATE --base-end DATE   the base period of those normals (default: every day held)
${formatUsage}
${sourceUsage}
  e.g. evap query --names "LAKE MEAD,LAKE POWELL" --datasets nete-volume-calcs --variables NetE,E_volume --start 2020-01-01 --end 2020-12-31`;

// kind, then interval -> the operation answering it over a range, and on one date (an aggregate has none)
const operationsOf = {
  reservoirs: { daily: ['reservoirTimeseries', 'reservoirTimeseriesOnDate'], aggregate: 'reservoirAggregates' },
  stations: { daily: ['stationTimeseries', 'stationTimeseriesOnDate'], aggregate: 'stationAggregates' },
} as const satisfies Record<string, { daily: readonly [RecordsOperation, RecordsOperation]; aggregate: RecordsOperation }>;
const queried = Object.values(operationsOf).flatMap((o): RecordsOperation[] => [...o.daily, o.aggregate]);
const intervals = ['daily', 'monthly', 'annual', 'water-year'] as const;

// a flag per option of the operations (lib/operations.ts), then the command's own
const optionFlagSpec = optionFlags(queried);
export const flags = { ...sourceFlags, ...optionFlagSpec, interval: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' } } as const;

/** An answer: streamed from a local store (its CSV and JSON text made from the columns), or whole from a server. */
type Answer = { stream: RecordStream } | { records: WireRecord[] };

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = readArgs(argv, flags);
  const kind = positionals[0] ?? 'reservoirs';
  if (kind !== 'reservoirs' && kind !== 'stations') throw new UsageError(`query reservoirs or stations, not ${JSON.stringify(kind)}`);
  if (positionals.length > 1) throw new UsageError(`unexpected ${JSON.stringify(positionals[1])}; names go in --names "A,B"`);
  const interval = choiceFlag(values, 'interval', intervals, 'daily');
  const out = stringFlag(values, 'out');
  const format = chooseFormat(io, stringFlag(values, 'format'), out);
  checkCombination(values, kind);
  const { source: current, close, answered } = await openSource(values, io);
  let source = current;
  try {
    // a store answers from its past snapshot as a whole; a server is asked with as_of
    const asOf = stringFlag(values, 'as-of');
    const local = 'streamReservoirTimeseries' in current;
    if (asOf !== undefined && local) source = await current.asOf(asOf);
    const answer = await answerOf(source, kind, interval, local ? { ...values, 'as-of': undefined } : values);
    let empty: boolean;
    if ('stream' in answer && (format === 'csv' || format === 'json')) {
      const text = watchText(format === 'csv' ? answer.stream.csv() : jsonLines(answer.stream), format);
      await writeText(io, text.chunks, out);
      empty = text.empty();
    } else {
      const records = 'records' in answer ? answer.records : await answer.stream.records();
      const columns = 'stream' in answer ? answer.stream.columns : Object.keys(records[0] ?? {});
      const metadata = format === 'parquet' ? await provenanceMetadata(source) : undefined;
      await writeRecords(io, records, columns, format, out, metadata);
      empty = records.length === 0;
    }
    const since = stringFlag(values, 'modified-since');
    if (empty) io.stderr.write(`${since === undefined ? await describeEmpty(source, kind, values) : `evap query: no record changed since ${since}`}\n`);
    else if (kind === 'stations') for (const note of await describeUnmeasured(source, values)) io.stderr.write(`${note}\n`);
    answered();
  } finally {
    if (source !== current && 'close' in source) await source.close(); // the past snapshot's lease
    await close();
  }
  return 0;
}

function checkCombination(values: Flags, kind: string): void {
  const date = stringFlag(values, 'date');
  if (date !== undefined && (values.start !== undefined || values.end !== undefined)) throw new UsageError('give --date, or --start and --end, not both');
  if (date !== undefined && values.names !== undefined) throw new UsageError('--date answers every name; for some names use --start DATE --end DATE');
  if (kind === 'stations' && values.datasets !== undefined) throw new UsageError('stations have no datasets; give --variables');
  const interval = stringFlag(values, 'interval') ?? 'daily';
  if (interval !== 'daily' && date !== undefined) throw new UsageError(`--interval ${interval} needs --start and --end, not --date`);
  if (interval === 'daily' && values.statistic !== undefined) throw new UsageError('--statistic needs an aggregate --interval: monthly, annual or water-year');
}

// the operation the flags ask, its options read from them as the table says, asked of a store (streamed) or a server
function answerOf(source: Source, kind: 'reservoirs' | 'stations', interval: (typeof intervals)[number], values: Flags): Promise<Answer> | Answer {
  const date = stringFlag(values, 'date') !== undefined;
  const operation = interval === 'daily' ? operationsOf[kind].daily[date ? 1 : 0] : operationsOf[kind].aggregate;
  const what = `a ${interval} ${kind === 'reservoirs' ? 'reservoir' : 'station'} query${date ? ' on a date' : ''}`;
  const options = { ...optionsFromFlags(operation, values, Object.keys(optionFlagSpec), what), ...(interval === 'daily' ? {} : { interval }) };
  // a store streams (its CSV and JSON text made from the columns) but for modified_since, which its array method
  // answers (the store's streams refuse it); a client asks for the whole answer: each by the operation's dispatch
  // (lib/open/dispatch.ts)
  if ('streamReservoirTimeseries' in source && options.modifiedSince === undefined) return { stream: streamOf(source, operation, options) };
  return recordsOf(source, operation, options).then((records) => ({ records }));
}

// the JSON array as the API sends it, then a newline for the terminal
async function* jsonLines(stream: RecordStream): AsyncGenerator<string> {
  yield* stream.json();
  yield '\n';
}
