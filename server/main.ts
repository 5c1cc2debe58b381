// `npm start`: read the settings, open the store, make or load the keys, listen, and stop cleanly on SIGTERM/SIGINT.
import { watchFile } from 'node:fs';
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
  const plain = KeyRing.fromKeys(config.keys).digestList();
  let keys = new KeyRing([...plain, ...digests]);
  if (keys.size === 0) {
    const key = generateKey();
    keys = KeyRing.fromKeys([key]);
    console.log(`api-key: ${key}`); // the only place a key is ever written: the operator needs it once
  }
  const { maxNames, maxVariables, maxUploadBytes, rateLimitPerMinute } = config;
  const handler = createHandler({ store, keys, limits: { maxNames, maxVariables, maxUploadBytes }, rateLimitPerMinute, logError: consoleLogger.error });
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

main().catch((error: unknown) => {
  console.error(`evap server failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
