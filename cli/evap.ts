#!/usr/bin/env node
// evap <command> [options]: one entry point; each command is its own module, loaded only when run (a query starts fast).
import { packageVersion } from '../lib/store/demo.js';
import { didYouMean } from '../lib/suggest.js';
import { type CommandModule, describeError, UsageError } from './command.js';
import { inFlagWords, queryCommands } from './wording.js';

// name -> one line for `evap --help`, and the module (its `usage` and `run`); a new command is one line here
const commands: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  demo: { summary: 'write the demo store into a folder', load: () => import('./commands/demo.js') },
  serve: { summary: 'serve a store over HTTP (the OperEvap API)', load: () => import('./commands/serve.js') },
  query: { summary: 'reservoir or station timeseries, from a store or a server', load: () => import('./commands/query.js') },
  forecast: { summary: 'ensemble evaporation forecasts: an issue, a lead, totals, verification', load: () => import('./commands/forecast.js') },
  info: { summary: 'datasets, variables, dates, names', load: () => import('./commands/info.js') },
  metadata: { summary: 'reservoir or station metadata', load: () => import('./commands/metadata.js') },
  generate: { summary: 'generate a synthetic store from the seeded model', load: () => import('./commands/generate.js') },
  ingest: { summary: 'load exported JSON or CSV files into a store', load: () => import('./commands/ingest.js') },
  mirror: { summary: 'copy a server into a store, resumably', load: () => import('./commands/mirror.js') },
  vacuum: { summary: 'delete files no retained snapshot needs', load: () => import('./commands/vacuum.js') },
  verify: { summary: 'check every byte of every file of a store', load: () => import('./commands/verify.js') },
  copy: { summary: 'copy a store between a folder and a bucket (s3://), verified and resumable', load: () => import('./commands/copy.js') },
  tables: { summary: 'publish a store as Apache Iceberg tables (metadata only)', load: () => import('./commands/tables.js') },
  files: { summary: "the current data files of a store's tables", load: () => import('./commands/files.js') },
  keys: { summary: 'API keys of a server: new, list, revoke, requests', load: () => import('./commands/keys.js') },
};

const usage = `usage: evap <command> [options]     (evap <command> --help for its options)

${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(10)}${c.summary}`)
  .join('\n')}

  evap --version    the version of evap`;

const [name, ...argv] = process.argv.slice(2);
if (name === '--version' || name === '-v') {
  process.stdout.write(`${packageVersion()}\n`);
} else if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
  process.stdout.write(`${usage}\n`);
} else if (!Object.hasOwn(commands, name)) {
  process.stderr.write(`evap: unknown command ${JSON.stringify(name)}${didYouMean(name, Object.keys(commands))}\n${usage}\n`);
  process.exitCode = 2;
} else {
  const command = await commands[name]!.load();
  if (argv.includes('--help') || argv.includes('-h')) process.stdout.write(`${command.usage}\n`);
  else {
    try {
      process.exitCode = (await command.run(argv)) ?? 0;
    } catch (error) {
      if (error instanceof UsageError) {
        process.stderr.write(`evap ${name}: ${error.message}\nusage: ${command.usage.split('\n')[0]}\n(evap ${name} --help for every option)\n`);
        process.exitCode = 2;
      } else {
        const message = describeError(error);
        process.stderr.write(`evap ${name}: ${queryCommands.has(name) ? inFlagWords(message) : message}\n`);
        process.exitCode = 1;
      }
    }
    // done: timers of an opened store (its reader lease, idle files) must not hold the process; stdout is flushed first
    await new Promise<void>((done) => process.stdout.write('', () => done()));
    process.exit();
  }
}
