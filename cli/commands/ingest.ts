// evap ingest: exported JSON or CSV files (timeseries or metadata) upserted into a store, atomically.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { type IngestSource, ingest } from '../../lib/ingest/ingest.js';
import { readArgs, requiredFlag } from '../args.js';
import { UsageError } from '../command.js';
import type { CliIo } from '../io.js';
import { pathIn, storageIn } from '../paths.js';
import { printProblems } from '../problems.js';
import { progressBar } from '../progress.js';
import { warnIfTablesBehind } from '../tables-behind.js';

export const usage = `evap ingest <files...> --store DIR [--skip-bad-rows]
  Loads timeseries exported by the API (JSON or CSV), long CSV (name,dataset,variable,date,value) and metadata
  files into the store in DIR (created when absent). A row replaces the stored one; the new snapshot appears at once.
  A file with a bad row is not applied (exit status 1) unless --skip-bad-rows.`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = readArgs(argv, { store: { type: 'string' }, 'skip-bad-rows': { type: 'boolean', default: false } });
  const store = requiredFlag(values, 'store');
  if (positionals.length === 0) throw new UsageError('give at least one file to ingest');
  for (const path of positionals) if (!existsSync(pathIn(io, path)) || !statSync(pathIn(io, path)).isFile()) throw new UsageError(`no such file: ${path}`);
  const sources: IngestSource[] = positionals.map((path) => ({ name: path, open: () => createReadStream(pathIn(io, path)) }));
  const began = performance.now();
  const bar = progressBar('ingest', io.stderr);
  let summary;
  try {
    summary = await ingest(storageIn(io, store), sources, { skipBadRows: values['skip-bad-rows'] === true, onProgress: bar.update });
  } finally {
    bar.stop();
  }
  printProblems(io.stderr, summary.problems, summary.rejected);
  const seconds = (performance.now() - began) / 1000;
  io.stdout.write(
    `${summary.snapshot ? `published snapshot ${summary.snapshot}` : 'nothing published'}: ${summary.filesApplied}/${summary.files} files applied, ` +
      `${count(summary.records, 'record')}${rate(summary.records, seconds)}, rows added ${summary.added}, replaced ${summary.replaced}, rejected ${summary.rejected}; ` +
      `${summary.metadata} metadata rows, ${summary.partitions} partition files in ${seconds.toFixed(1)} s\n`,
  );
  if (summary.snapshot) await warnIfTablesBehind(io, storageIn(io, store), store);
  return summary.filesApplied < summary.files ? 1 : 0;
}

// "1 record", "2 records"
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

// a rate only where it means something: a run of a second or more, at least one a second (not "1 records (0/s)")
function rate(records: number, seconds: number): string {
  const perSecond = records / seconds;
  return seconds >= 1 && perSecond >= 1 ? ` (${Math.round(perSecond)}/s)` : '';
}
