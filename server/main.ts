// `evap serve` (and `npm start`): read the settings, open the store, make or load the keys, listen, and stop cleanly on SIGTERM/SIGINT.
import { realpathSync, watchFile } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openStore } from '../lib/store.js';
import { createHandler } from './app.js';
import { generateKey, KeyRing, readKeysFile } from './auth.js';
import { readConfig, usage, type Config } from './config.js';
import { consoleLogger } from './log.js';
import { createKeyRequests } from './requests.js';
import { serve } from './node.js';

/** Starts the server with these flags and environment; runs until SIGTERM or SIGINT. */
export async function startServer(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let config: Config;
  try {
    config = readConfig(argv, env);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    process.exit(2);
  }
  const store = await openStore(config.store);
  const digests = config.keysFile ? await readKeysFile(config.keysFile) : [];
  const plain = KeyRing.fromKeys(config.keys).digestList();
  let keys = new KeyRing([...plain, ...digests]);
  if (keys.size === 0) {
    const key = generateKey();
    keys = KeyRing.fromKeys([key]);
    console.log(`api-key: ${key}`); // the only place a key is ever written: the operator needs it once
  }
  const { maxNames, maxVariables, maxUploadBytes, rateLimitPerMinute } = config;
  const keyRequests = createKeyRequests(config.requestsFile);
  const handler = createHandler({ store, keys, limits: { maxNames, maxVariables, maxUploadBytes }, rateLimitPerMinute, logError: consoleLogger.error, keyRequests });
  const serving = await serve(handler, { ...config, logger: consoleLogger });
  console.log(`listening on ${serving.url}`);
  console.log(`explorer: ${serving.url}/ (map and charts; asks for the api-key once per browser tab)`);
  // a snapshot published by `evap ingest` or `evap mirror` is served from the next request on; requests under way finish on theirs
  if (config.refreshMs > 0) {
    setInterval(() => {
      store.refresh().then(
        (changed) => changed && console.log(`serving snapshot ${store.manifest.snapshot}`),
        (error: unknown) => consoleLogger.error(`store refresh failed, still serving snapshot ${store.manifest.snapshot}: ${error instanceof Error ? error.message : String(error)}`),
      );
    }, config.refreshMs).unref();
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight requests`);
    serving.close().then(() => process.exit(0), () => process.exit(1));
  };
  // the keys file is read again on SIGHUP and whenever it changes: a revoked key stops working without a restart
  if (config.keysFile) {
    const keysFile = config.keysFile;
    const reload = (why: string) =>
      readKeysFile(keysFile).then(
        (fresh) => {
          keys.replace([...plain, ...fresh]);
          console.log(`${why}: keys file reloaded, ${fresh.length} keys`);
        },
        (error: unknown) => consoleLogger.error(`${why}: keys file not reloaded, the previous keys stay: ${error instanceof Error ? error.message : String(error)}`),
      );
    process.on('SIGHUP', () => void reload('SIGHUP'));
    watchFile(keysFile, { interval: 2000, persistent: false }, (now, before) => {
      if (now.mtimeMs !== before.mtimeMs || now.size !== before.size || now.ino !== before.ino) void reload('keys file changed');
    });
  } else {
    process.on('SIGHUP', () => console.log('SIGHUP: no keys file to reload')); // not the default: a hang-up must not stop the server
  }
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** startServer, exiting 1 with the reason when it cannot start. */
export function runServer(argv?: readonly string[], env?: NodeJS.ProcessEnv): void {
  startServer(argv, env).catch((error: unknown) => {
    console.error(`evap server failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}

// run as a script (node dist/server/main.js, tsx server/main.ts): serve; imported by `evap serve`: nothing more
if (isEntryPoint()) runServer();

function isEntryPoint(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}
