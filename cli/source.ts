// Where a command's answers come from: a local store (--store DIR, default the demo store) or a server (--from URL).

import { parseWholeNumber } from '../lib/integer.js';
import type { StoreReader } from '../lib/open/store.js';
import { aboutMetadata } from '../lib/store/about.js';
import { createClient, type EvapClient } from '../lib/sync/client.js';
import { type FlagSpec, type Flags, stringFlag } from './args.js';
import { UsageError } from './command.js';
import type { CliIo } from './io.js';
import { pathIn } from './paths.js';

/** The flags that choose the source, for a command's parseArgs options. */
export const sourceFlags = {
  store: { type: 'string' },
  from: { type: 'string' },
  'api-key': { type: 'string' },
  'timeout-ms': { type: 'string' },
} as const satisfies FlagSpec;

export const sourceUsage = `  --store DIR             a local store (default: the demo store)
  --from URL              a server speaking the OperEvap API instead, e.g. http://127.0.0.1:8080
  --api-key KEY           its key (or the environment variable EVAP_API_KEY)
  --timeout-ms N          with --from: give up on a request after N ms (default 60000)`;

/** A store (or a view of its past) or a client: the same query methods, the same answers (the store's are partly synchronous). */
export type Source = StoreReader | EvapClient;

/** The provenance as a Parquet file's key-value metadata (`evap.synthetic`, `evap.data`, ...); a server without
 * /info/about (the public one) has none to give. */
export async function provenanceMetadata(source: Source): Promise<Map<string, string> | undefined> {
  const about = await Promise.resolve(source.about()).catch(() => undefined);
  return about && aboutMetadata(about);
}

/** Opens the source the flags name; close() releases a store; answered(), called once an answer is written, says on
 * stderr when its values are synthetic (a saved CSV or JSON file carries no marker of its own). */
export async function openSource(values: Flags, io: CliIo): Promise<{ source: Source; close(): Promise<void>; answered(): void }> {
  const from = stringFlag(values, 'from');
  if (from !== undefined) {
    if (stringFlag(values, 'store') !== undefined) throw new UsageError('give --store or --from, not both');
    if (!/^https?:\/\//.test(from)) throw new UsageError(`--from must be an http:// or https:// URL; got ${JSON.stringify(from)}`);
    const apiKey = stringFlag(values, 'api-key') ?? io.env.EVAP_API_KEY;
    if (!apiKey) throw new UsageError('--from needs --api-key KEY (or EVAP_API_KEY)');
    const text = stringFlag(values, 'timeout-ms');
    const timeout = text === undefined ? 60_000 : parseWholeNumber(text);
    if (timeout === undefined || timeout <= 0) throw new UsageError('--timeout-ms must be a positive integer');
    let data: string | undefined;
    return {
      source: createClient({
        baseUrl: from,
        apiKey,
        timeoutMs: timeout,
        retries: 1,
        warn: (message) => io.stderr.write(`evap: warning: ${message}\n`),
        onData: (kind) => (data = kind), // the server's X-Evap-Data header
      }),
      close: async () => {},
      answered: () => {
        if (data === 'synthetic') io.stderr.write(`${syntheticNote(`the server at ${from}`, `--from ${from}`)}\n`);
      },
    };
  }
  const { openStore } = await import('../lib/open/store.js');
  const location = stringFlag(values, 'store');
  const store = await openStore(location === undefined ? await demoStore(io) : pathIn(io, location));
  return {
    source: store,
    close: () => store.close(),
    // the demo store's note is demoStore's, before the answer; any other synthetic store's, after it
    answered: () => {
      if (location !== undefined && store.synthetic) io.stderr.write(`${syntheticNote(`the store ${location}`, `--store ${location}`)}\n`);
    },
  };
}

// no --store: the demo store (made once if missing), said on the run's stderr so that its synthetic values are never taken for data
async function demoStore(io: CliIo): Promise<string> {
  const [{ ensureDemoStore }, { demoFallbackNote }] = await Promise.all([import('../lib/synthetic/demo.js'), import('../lib/store/about.js')]);
  const dir = await ensureDemoStore();
  io.stderr.write(`${demoFallbackNote(dir)}\n`);
  return dir;
}

/** The line said on stderr when the answers come from synthetic data (a store, or a server saying so in X-Evap-Data). */
function syntheticNote(what: string, flag: string): string {
  return `evap: ${what} holds SYNTHETIC values (real names, made-up numbers), not OperEvap data; evap info about ${flag} says more`;
}
