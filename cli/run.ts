// evap <command> [options] as a function: run(argv, io) gives the exit status and leaves the process alone, so that a
// test runs commands in its own process; cli/evap.ts is the bin around it. Each command is its own module, loaded only
// when run (a query starts fast).
import { InvalidParameterError, NotFoundError } from '../lib/errors.js';
import { didYouMean } from '../lib/suggest.js';
import { packageVersion } from '../lib/synthetic/demo.js';
import { type CommandModule, describeError, UsageError } from './command.js';
import type { CliIo } from './io.js';
import { inFlagWords, queryCommands } from './wording.js';

// name -> one line for `evap --help`, and the module (its `usage` and `run`); a new command is one line here
const commands: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  demo: { summary: 'write the demo store into a folder', load: () => import('./commands/demo.js') },
  serve: { summary: 'serve a store over HTTP (the OperEvap API)', load: () => import('./commands/serve.js') },
  query: { summary: 'reservoir or station timeseries, from a store or a server', load: () => import('./commands/query.js') },
  model: { summary: 'compute evaporation with the DLEM: a forcing file, a store, a what-if', load: () => import('./commands/model.js') },
  forecast: { summary: 'ensemble evaporation forecasts: an issue, a lead, totals, verification', load: () => import('./commands/forecast.js') },
  info: { summary: 'datasets, variables, dates, names', load: () => import('./commands/info.js') },
  about: { summary: "a store's title, source, citation, licence: shown or set", load: () => import('./commands/about.js') },
  metadata: { summary: 'reservoir or station metadata', load: () => import('./commands/metadata.js') },
  generate: { summary: 'generate a synthetic store from the seeded model', load: () => import('./commands/generate.js') },
  ingest: { summary: 'load exported JSON or CSV files into a store', load: () => import('./commands/ingest.js') },
  mirror: { summary: 'copy a server into a store, resumably', load: () => import('./commands/mirror.js') },
  vacuum: { summary: 'delete files no retained snapshot needs', load: () => import('./commands/vacuum.js') },
  verify: { summary: 'check every byte of every file of a store', load: () => import('./commands/verify.js') },
  copy: { summary: 'copy a store between a folder and a bucket (s3://), verified and resumable', load: () => import('./commands/copy.js') },
  tables: { summary: 'publish a store as Apache Iceberg tables (metadata only)', load: () => import('./commands/tables.js') },
  files: { summary: "the current data files of a store's tables", load: () => import('./commands/files.js') },
  changes: { summary: 'the names and days that changed in a store since a snapshot', load: () => import('./commands/changes.js') },
  keys: { summary: 'API keys of a server: new, list, revoke, requests', load: () => import('./commands/keys.js') },
};

// a station asked for as a reservoir (or the reverse): the command that answers it
function otherKindHint(error: unknown): string {
  if (!(error instanceof NotFoundError) || error.elsewhere.length === 0) return '';
  const kind = error.parameter === 'RES_NAMES' ? 'stations' : 'reservoirs';
  return `; ask for ${kind} as ${kind}: evap query ${kind} --names ${JSON.stringify(error.elsewhere.join(','))} (or evap metadata ${kind})`;
}

// the commands whose InvalidParameterErrors all come of their flags' values (forecast --ingest: of a file's lines too)
const flagValueCommands: ReadonlySet<string> = new Set(['query', 'info', 'metadata', 'files']);

const usage = `usage: evap <command> [options]     (evap <command> --help for its options)

${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(10)}${c.summary}`)
  .join('\n')}

  evap --version    the version of evap`;

/** Runs `evap ...argv` with these streams, environment and folder; resolves to the exit status (2 a mistake, 1 a failure). */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${usage}\n`);
    return 0;
  }
  if (!Object.hasOwn(commands, name)) {
    io.stderr.write(`evap: unknown command ${JSON.stringify(name)}${didYouMean(name, Object.keys(commands))}\n${usage}\n`);
    return 2;
  }
  const command = await commands[name]!.load();
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    return (await command.run(args, io)) ?? 0;
  } catch (error) {
    const words = (message: string) => (queryCommands.has(name) ? inFlagWords(message) : message);
    // the wire's words where the library used its caller's options (start_date, which inFlagWords makes --start), as
    // a server answers them: the same message from a store and from --from
    const wire = error instanceof InvalidParameterError ? error.wire?.message : undefined;
    // one rule for a flag's value refused (--units imperial, --interval weekly, --start 2021-02-30): exit 2 with the
    // accepted values and the synopsis, as for any mistake on the command line; a failure (a name the store does not
    // hold, a server down) exits 1. Only where every InvalidParameterError is a flag's: model and forecast ingest
    // raise it for a bad line of a file too, which is no mistake in the command line
    if (error instanceof UsageError || (error instanceof InvalidParameterError && flagValueCommands.has(name))) {
      io.stderr.write(`evap ${name}: ${words(wire ?? error.message)}\nusage: ${command.usage.split('\n')[0]}\n(evap ${name} --help for every option)\n`);
      return 2;
    }
    io.stderr.write(`evap ${name}: ${words(wire ?? describeError(error))}${otherKindHint(error)}\n`);
    return 1;
  }
}
