// evap forecast: the ensemble evaporation forecasts of a store or a server (docs/forecasts.md): one issue by lead day,
// by valid date at one lead (--lead), totals over the leads (--total), or how good past issues were (--verification).

import { ALL_NAMES } from '../../lib/catalogue.js';
import { recordsOf, streamOf } from '../../lib/open/dispatch.js';
import type { RecordsOperation } from '../../lib/operations.js';
import type { WireRecord } from '../../lib/types.js';
import { type Flags, listFlag, optionFlags, optionsFromFlags, readArgs, stringFlag } from '../args.js';
import { UsageError } from '../command.js';
import { watchText } from '../empty.js';
import type { CliIo } from '../io.js';
import { chooseFormat, formatUsage, writeRecords, writeText } from '../output.js';
import { pathIn, storageIn } from '../paths.js';
import { openSource, provenanceMetadata, type Source, sourceFlags, sourceUsage } from '../source.js';
import { warnIfTablesBehind } from '../tables-behind.js';

export const usage = `evap forecast [--names A,B] [--issued DATE|latest] [--leads 1-7] [options]
  The 28-day ensemble evaporation forecasts, as the API's /forecast paths answer them.
  --list                  which reservoirs have forecasts: each with its first and last issue date
                          (--names, default ALL; GET /forecast/info/list_issues)
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
  list: { type: 'boolean' },
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
  if (values.list === true) return listIssues(io, values, format, out);
  const operation = operationOf(values);
  const { source: current, close, answered } = await openSource(values, io);
  let source: Source = current;
  try {
    const asOf = stringFlag(values, 'as-of');
    const local = 'streamForecastDaily' in current;
    if (asOf !== undefined && local) source = await current.asOf(asOf);
    const flagsGiven = local ? { ...values, 'as-of': undefined } : values;
    const options = optionsFromFlags(operation, flagsGiven, Object.keys(optionFlagSpec), whatOf(operation));
    let empty: boolean;
    if ('streamForecastDaily' in source && (format === 'csv' || format === 'json')) {
      const stream = streamOf(source, operation, options); // a store's: its text made from the columns
      const text = watchText(format === 'csv' ? stream.csv() : withNewline(stream.json()), format);
      await writeText(io, text.chunks, out);
      empty = text.empty();
    } else {
      const records = await recordsOf(source, operation, options);
      const metadata = format === 'parquet' ? await provenanceMetadata(source) : undefined;
      await writeRecords(io, records, Object.keys(records[0] ?? {}), format, out, metadata);
      empty = records.length === 0;
    }
    // as evap query does: an empty answer exits 0, and stderr says what the forecasts hold
    if (empty) io.stderr.write(`${await describeNoForecast(source, listFlag(values, 'names'))}\n`);
    answered();
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

// --list: the reservoirs with forecasts and their first and last issue (every reservoir unless --names)
async function listIssues(io: CliIo, values: Flags, format: ReturnType<typeof chooseFormat>, out: string | undefined): Promise<number> {
  const others = ['total', 'verification', 'lead', 'issued', 'leads', 'variables', 'statistics', 'start', 'end'].filter((f) => values[f] !== undefined);
  if (others.length > 0) throw new UsageError(`--list takes --names only, not --${others[0]}`);
  const { source, close, answered } = await openSource(values, io);
  try {
    const records: WireRecord[] = await source.listForecastIssues(listFlag(values, 'names') ?? [ALL_NAMES]);
    await writeRecords(io, records, ['RES_NAME', 'start_date', 'end_date'], format, out, format === 'parquet' ? await provenanceMetadata(source) : undefined);
    if (records.length === 0) io.stderr.write('evap forecast: no reservoir asked has forecasts; the list is empty\n');
    answered();
  } finally {
    await close();
  }
  return 0;
}

// what an empty forecast answer is said as: the names asked have no forecasts (and how many reservoirs do), or the
// issues those names have
async function describeNoForecast(source: Source, names: string[] | undefined): Promise<string> {
  const held = await Promise.resolve(source.listForecastIssues(names)).catch(() => undefined);
  if (held === undefined) return 'evap forecast: no forecast matched; the answer is empty';
  if (held.length > 0) {
    const first = held.reduce((min, r) => (r.start_date < min ? r.start_date : min), held[0]!.start_date);
    const last = held.reduce((max, r) => (r.end_date > max ? r.end_date : max), held[0]!.end_date);
    return `evap forecast: no forecast matched; those reservoirs' forecasts were issued from ${first} to ${last}; the answer is empty`;
  }
  const all = await Promise.resolve(source.listForecastIssues([ALL_NAMES])).catch(() => []);
  const asked = names === undefined ? 'the default reservoirs' : names.join(', ');
  const where = all.length === 0 ? 'this store holds no forecasts' : `${all.length} reservoirs have them (evap forecast --list names them)`;
  return `evap forecast: no forecasts for ${asked}; ${where}; the answer is empty`;
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

async function* withNewline(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  yield* chunks;
  yield '\n';
}
