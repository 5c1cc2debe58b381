// evap query: reservoir or station timeseries with the API's names and values, from a store or a server.
import type { RecordStream } from '../../lib/format/stream.js';
import type { Interval } from '../../lib/query/periods.js';
import { aboutMetadata } from '../../lib/store/about.js';
import type { CommonQuery, WireRecord } from '../../lib/types.js';
import { choiceFlag, type Flags, listFlag, readArgs, stringFlag } from '../args.js';
import { UsageError } from '../command.js';
import { describeEmpty, watchText } from '../empty.js';
import { chooseFormat, formatUsage, writeRecords, writeText } from '../output.js';
import { openSource, type Source, sourceFlags, sourceUsage } from '../source.js';

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
  --interval I            daily (default), monthly, annual or water-year (October-September, named by its end year)
  --statistic S           with an aggregate interval: sum, mean, min or max for every variable (default: each its own)
${formatUsage}
${sourceUsage}
  e.g. evap query --names "LAKE MEAD,LAKE POWELL" --datasets nete-volume-calcs --variables NetE,E_volume --start 2020-01-01 --end 2020-12-31`;

const flags = {
  ...sourceFlags,
  names: { type: 'string' },
  datasets: { type: 'string' },
  variables: { type: 'string' },
  start: { type: 'string' },
  end: { type: 'string' },
  date: { type: 'string' },
  units: { type: 'string' },
  'also-return': { type: 'string' },
  'as-of': { type: 'string' },
  interval: { type: 'string' },
  statistic: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
} as const;

// interval -> how its answer is made
const intervals = {
  daily: dailyAnswer,
  monthly: aggregateAnswer('monthly'),
  annual: aggregateAnswer('annual'),
  'water-year': aggregateAnswer('water-year'),
} as const;

/** An answer: streamed from a local store (its CSV and JSON text made from the columns), or whole from a server. */
type Answer = { stream: RecordStream } | { records: WireRecord[] };

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = readArgs(argv, flags);
  const kind = positionals[0] ?? 'reservoirs';
  if (kind !== 'reservoirs' && kind !== 'stations') throw new UsageError(`query reservoirs or stations, not ${JSON.stringify(kind)}`);
  if (positionals.length > 1) throw new UsageError(`unexpected ${JSON.stringify(positionals[1])}; names go in --names "A,B"`);
  const interval = choiceFlag(values, 'interval', Object.keys(intervals) as (keyof typeof intervals)[], 'daily');
  const out = stringFlag(values, 'out');
  const format = chooseFormat(stringFlag(values, 'format'), out);
  checkCombination(values, kind);
  const { source: current, close } = await openSource(values);
  let source = current;
  try {
    // a store answers from its past snapshot as a whole; a server is asked with as_of
    const asOf = stringFlag(values, 'as-of');
    const local = 'streamReservoirTimeseries' in current;
    if (asOf !== undefined && local) source = await current.asOf(asOf);
    const answer = await intervals[interval](source, kind, local ? { ...values, 'as-of': undefined } : values);
    let empty: boolean;
    if ('stream' in answer && (format === 'csv' || format === 'json')) {
      const text = watchText(format === 'csv' ? answer.stream.csv() : jsonLines(answer.stream), format);
      await writeText(text.chunks, out);
      empty = text.empty();
    } else {
      const records = 'records' in answer ? answer.records : await answer.stream.records();
      const columns = 'stream' in answer ? answer.stream.columns : Object.keys(records[0] ?? {});
      // a server without /info/about (the public one) has no provenance to give
      const about = format === 'parquet' ? await Promise.resolve(source.about()).catch(() => undefined) : undefined;
      await writeRecords(records, columns, format, out, about && aboutMetadata(about));
      empty = records.length === 0;
    }
    if (empty) process.stderr.write(`${await describeEmpty(source, kind, values)}\n`);
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

function dailyAnswer(source: Source, kind: 'reservoirs' | 'stations', values: Flags): Promise<Answer> | Answer {
  const common: CommonQuery = {
    variables: listFlag(values, 'variables'),
    units: stringFlag(values, 'units'),
    alsoReturn: listFlag(values, 'also-return'),
    asOf: stringFlag(values, 'as-of'),
  };
  const range = { names: listFlag(values, 'names'), start: stringFlag(values, 'start'), end: stringFlag(values, 'end') };
  const date = stringFlag(values, 'date');
  const datasets = listFlag(values, 'datasets');
  if ('streamReservoirTimeseries' in source) {
    if (kind === 'reservoirs')
      return {
        stream: date
          ? source.streamReservoirTimeseriesOnDate({ ...common, datasets, date })
          : source.streamReservoirTimeseries({ ...common, datasets, ...range }),
      };
    return { stream: date ? source.streamStationTimeseriesOnDate({ ...common, date }) : source.streamStationTimeseries({ ...common, ...range }) };
  }
  const records =
    kind === 'reservoirs'
      ? date
        ? source.reservoirTimeseriesOnDate({ ...common, datasets, date })
        : source.reservoirTimeseries({ ...common, datasets, ...range })
      : date
        ? source.stationTimeseriesOnDate({ ...common, date })
        : source.stationTimeseries({ ...common, ...range });
  return records.then((r) => ({ records: r }));
}

// monthly, annual or water-year records: the same flags as a daily range, plus --statistic
function aggregateAnswer(interval: Interval) {
  return (source: Source, kind: 'reservoirs' | 'stations', values: Flags): Promise<Answer> | Answer => {
    const query = {
      interval,
      variables: listFlag(values, 'variables'),
      units: stringFlag(values, 'units'),
      alsoReturn: listFlag(values, 'also-return'),
      asOf: stringFlag(values, 'as-of'),
      statistic: stringFlag(values, 'statistic'),
      names: listFlag(values, 'names'),
      start: stringFlag(values, 'start'),
      end: stringFlag(values, 'end'),
    };
    if ('streamReservoirAggregates' in source) {
      return {
        stream:
          kind === 'reservoirs'
            ? source.streamReservoirAggregates({ ...query, datasets: listFlag(values, 'datasets') })
            : source.streamStationAggregates(query),
      };
    }
    const records = kind === 'reservoirs' ? source.reservoirAggregates({ ...query, datasets: listFlag(values, 'datasets') }) : source.stationAggregates(query);
    return records.then((r) => ({ records: r }));
  };
}

// the JSON array as the API sends it, then a newline for the terminal
async function* jsonLines(stream: RecordStream): AsyncGenerator<string> {
  yield* stream.json();
  yield '\n';
}
