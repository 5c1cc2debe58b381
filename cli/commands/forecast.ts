// evap forecast: the ensemble evaporation forecasts of a store or a server (docs/forecasts.md): one issue by lead day,
// by valid date at one lead (--lead), totals over the leads (--total), or how good past issues were (--verification).
import type { RecordStream } from '../../lib/format/stream.js';
import type { RecordsOperation } from '../../lib/operations.js';
import type { WireRecord } from '../../lib/types.js';
import { type Flags, optionFlags, optionsFromFlags, readArgs, stringFlag } from '../args.js';
import { UsageError } from '../command.js';
import type { CliIo } from '../io.js';
import { chooseFormat, formatUsage, writeRecords, writeText } from '../output.js';
import { pathIn, storageIn } from '../paths.js';
import { openSource, type Source, sourceFlags, sourceUsage } from '../source.js';
import { warnIfTablesBehind } from '../tables-behind.js';

export const usage = `evap forecast [--names A,B] [--issued DATE|latest] [--leads 1-7] [options]
  The 28-day ensemble evaporation forecasts, as the API's /forecast paths answer them.
  (default)               one issue (--issued, default latest): a record per reservoir and lead day (--leads, default 1-28)
  --lead N                per valid date (--start, --end), the forecast issued N days before, with the day's estimate
  --total                 the statistics of the total over --leads of one issue, per reservoir
  --verification          n, bias, mae, rmse, crps, coverage_80, mae_normal, skill per reservoir, variable and lead,
                          over the issues from --start to --end
  --names "A,B"           reservoir names (default as the API: LAKE ALICE, LAKE ESTES); ALL for every one
  --variables A,B         E_hs, NetE, E_volume, NetE_volume, pr (default all)
  --statistics A,B        mean, p05, p10, p25, p50, p75, p90, p95, members (default mean,p10,p50,p90)
  --units U               metric (default) or english
  --also-return A,B       reservoir attributes added to every record (STATE, LAT, LON, ...)
  --as-of TIME            the forecasts as published then: an ISO date (end of that day, UTC) or time
  --ingest FILE[,FILE]    load forecasts into --store instead: long CSV (name,issued,valid_date,variable,
                          member_or_statistic,value; metric) or .json answers of /forecast/daily/reservoirs
${formatUsage}
${sourceUsage}
  e.g. evap forecast --names "LAKE MEAD" --variables E_volume --total --units english`;

const operations = ['forecastDaily', 'forecastLead', 'forecastTotal', 'forecastVerification'] as const satisfies readonly RecordsOperation[];
const optionFlagSpec = optionFlags(operations);
export const flags = {
  ...sourceFlags,
  ...optionFlagSpec,
  total: { type: 'boolean' },
  verification: { type: 'boolean' },
  ingest: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
} as const;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = readArgs(argv, flags);
  if (positionals.length > 0) throw new UsageError(`unexpected ${JSON.stringify(positionals[0])}; names go in --names "A,B"`);
  const ingest = stringFlag(values, 'ingest');
  if (ingest !== undefined) return ingestFiles(io, values, ingest.split(','));
  const out = stringFlag(values, 'out');
  const format = chooseFormat(io, stringFlag(values, 'format'), out);
  const operation = operationOf(values);
  const { source: current, close } = await openSource(values, io);
  let source: Source = current;
  try {
    const asOf = stringFlag(values, 'as-of');
    const local = 'streamForecastDaily' in current;
    if (asOf !== undefined && local) source = await current.asOf(asOf);
    const flagsGiven = local ? { ...values, 'as-of': undefined } : values;
    const options = optionsFromFlags(operation, flagsGiven, Object.keys(optionFlagSpec), whatOf(operation));
    const method = `${operation[0]!.toUpperCase()}${operation.slice(1)}`;
    if (local && (format === 'csv' || format === 'json')) {
      const stream = (source as unknown as Calls<RecordStream>)[`stream${method}`]!.call(source, options);
      await writeText(io, format === 'csv' ? stream.csv() : withNewline(stream.json()), out);
    } else {
      const records = local
        ? await (source as unknown as Calls<RecordStream>)[`stream${method}`]!.call(source, options).records()
        : await (source as unknown as Calls<Promise<WireRecord[]>>)[operation]!.call(source, options);
      await writeRecords(io, records, Object.keys(records[0] ?? {}), format, out);
      if (records.length === 0) io.stderr.write('no forecast matched; `evap forecast` without options shows the latest issue\n');
    }
  } finally {
    if (source !== current && 'close' in source) await source.close(); // the past snapshot's lease
    await close();
  }
  return 0;
}

// each (issue, reservoir) in the files replaces the one held, in one new snapshot
async function ingestFiles(io: CliIo, values: Flags, files: string[]): Promise<number> {
  const store = stringFlag(values, 'store');
  if (store === undefined) throw new UsageError('--ingest needs --store DIR: the store to load the forecasts into');
  const { readFile } = await import('node:fs/promises');
  const { ingestForecastValues, parseForecastAnswer, parseForecastCsv } = await import('../../lib/forecast/ingest.js');
  const parsed = [];
  for (const file of files) {
    const text = await readFile(pathIn(io, file), 'utf8');
    parsed.push(...(file.endsWith('.json') ? parseForecastAnswer(text, file) : parseForecastCsv(text, file)));
  }
  const summary = await ingestForecastValues(storageIn(io, store), parsed);
  io.stderr.write(
    `loaded ${summary.reservoirForecasts} reservoir forecasts of ${summary.issues} issues (months ${summary.months.join(', ')}) as snapshot ${summary.snapshot}\n`,
  );
  await warnIfTablesBehind(io, storageIn(io, store), store);
  return 0;
}

function operationOf(values: Flags): (typeof operations)[number] {
  const chosen = [values.total === true && '--total', values.verification === true && '--verification', values.lead !== undefined && '--lead'].filter(Boolean);
  if (chosen.length > 1) throw new UsageError(`give one of ${chosen.join(', ')}`);
  if (values.verification === true) return 'forecastVerification';
  if (values.total === true) return 'forecastTotal';
  return values.lead !== undefined ? 'forecastLead' : 'forecastDaily';
}

const whatOf = (operation: (typeof operations)[number]) =>
  ({
    forecastDaily: 'a forecast of one issue',
    forecastLead: 'a forecast at one --lead',
    forecastTotal: 'a --total',
    forecastVerification: 'a --verification',
  })[operation];

type Calls<T> = Record<string, ((options: object) => T) | undefined>;

async function* withNewline(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  yield* chunks;
  yield '\n';
}
