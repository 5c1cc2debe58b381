// `npm start`: read the settings, open the store, make or load the keys, listen, and stop cleanly on SIGTERM/SIGINT.
import { openStore } from '../lib/store.js';
import { createHandler } from './app.js';
import { generateKey, KeyRing, readKeysFile } from './auth.js';
import { readConfig, usage, type Config } from './config.js';
import { consoleLogger } from './log.js';
import { serve } from './node.js';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = readConfig(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    process.exit(2);
  }
  const store = await openStore(config.store);
  const digests = config.keysFile ? await readKeysFile(config.keysFile) : [];
  let keys = new KeyRing([...KeyRing.fromKeys(config.keys).digestList(), ...digests]);
  if (keys.size === 0) {
    const key = generateKey();
    keys = KeyRing.fromKeys([key]);
    console.log(`api-key: ${key}`); // the only place a key is ever written: the operator needs it once
  }
  const { maxNames, maxVariables, maxUploadBytes, rateLimitPerMinute } = config;
  const handler = createHandler({ store, keys, limits: { maxNames, maxVariables, maxUploadBytes }, rateLimitPerMinute, logError: consoleLogger.error });
  const serving = await serve(handler, { ...config, logger: consoleLogger });
  console.log(`listening on ${serving.url}`);
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
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(`evap server failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
