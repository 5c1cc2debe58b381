// One serving process: open the store, load the keys, listen, refresh snapshots, reload keys, drain on SIGTERM/SIGINT.
// Run alone by `npm start`, or once per worker by server/process/cluster.ts.
import { watchFile } from 'node:fs';
import { type EvapStore, openStore } from '../../lib/open/store.js';
import { demoDatabaseNames, findTexasDemoStore } from '../../lib/synthetic/demo.js';
import { createDatabasesHandler, type ServedDatabase } from '../databases.js';
import { generateKey, KeyRing, readKeysFile } from '../keys/auth.js';
import type { RateLimiter } from '../keys/rate.js';
import { createKeyRequests } from '../keys/requests.js';
import { serve } from './adapter.js';
import { type Config, LOG_LOSS_EXIT } from './config.js';
import { announce, consoleLogger, keepServingWithoutLog, lostLogLines } from './log.js';

interface ProcessOptions {
  keyDigests?: Buffer[]; // accepted as well (a cluster's generated key, made once by the primary); none configured and none given: a key is made and printed
  rateLimiter?: RateLimiter; // shared counters (a cluster's primary); default: counters in this process
  keyRequestLimiter?: RateLimiter; // the same for GET /auth/request_key
  announce?: boolean; // print `listening on ...` (default true; a cluster's primary prints it once for all)
  onStopped?: (code: number) => void; // after draining (default process.exit)
}

/**
 * The stores to serve, opened: those configured (a bare location is named `default`), or with none the demo store as
 * `usbr` and, when `npm ci` made it, the Texas-like one as `twdb`.
 */
async function openDatabases(config: Config): Promise<ServedDatabase[]> {
  if (config.databases.length === 0) {
    const [usbr, twdb] = demoDatabaseNames;
    const demo: ServedDatabase[] = [{ name: usbr, store: await openStore() }];
    const texas = findTexasDemoStore();
    if (texas) demo.push({ name: twdb, store: await openStore(texas) });
    return demo;
  }
  const opened: ServedDatabase[] = [];
  try {
    for (const { name, location } of config.databases) opened.push({ name: name ?? 'default', store: await openStore(location) });
  } catch (error) {
    await Promise.all(opened.map((d) => d.store.close().catch(() => undefined)));
    throw error;
  }
  return opened;
}

/** Serves the store in this process until SIGTERM or SIGINT, then finishes the requests under way and exits. */
export async function startProcess(config: Config, options: ProcessOptions = {}): Promise<{ url: string }> {
  keepServingWithoutLog(); // from the first line written: the stop for --exit-on-log-loss is given below
  const databases = await openDatabases(config);
  const stores = databases.map((d) => d.store);
  const fromFile = config.keysFile ? await readKeysFile(config.keysFile) : { digests: [], problems: [] };
  for (const problem of fromFile.problems) consoleLogger.error(problem);
  const digests = fromFile.digests;
  const plain = [...KeyRing.fromKeys(config.keys).digestList(), ...(options.keyDigests ?? [])];
  let keys = new KeyRing([...plain, ...digests]);
  if (keys.size === 0) {
    const key = generateKey();
    keys = KeyRing.fromKeys([key]);
    console.log(`api-key: ${key}`); // the only place a key is ever written: the operator needs it once
  }
  const { maxNames, maxVariables, maxUploadBytes, rateLimitPerMinute, maxHeavy } = config;
  const keyRequests = createKeyRequests(config.requestsFile, { limiter: options.keyRequestLimiter });
  const handler = createDatabasesHandler({
    databases,
    keys,
    limits: { maxNames, maxVariables, maxUploadBytes },
    rateLimitPerMinute,
    rateLimiter: options.rateLimiter,
    logError: consoleLogger.error,
    keyRequests,
    maxHeavy,
    heavyWaitMs: Math.ceil(config.stallTimeoutMs / 2), // a waiting client hears its 503 long before a silence this long would be cut
    answerCacheBytes: config.answerCacheMib * 2 ** 20,
    links: { publicUrl: config.publicUrl, trustProxy: config.trustProxy },
  });
  const serving = await serve(handler, { ...config, logger: consoleLogger });
  // a snapshot published by `evap ingest` or `evap mirror` is served from the next request on; requests under way finish on theirs
  if (config.refreshMs > 0) {
    const named = databases.length > 1 ? (d: ServedDatabase) => `${d.name}: ` : () => '';
    const refreshing = new Set<ServedDatabase>(); // a tick skips a store whose last refresh has not ended (a slow bucket)
    setInterval(() => {
      for (const database of databases) {
        const { store } = database;
        if (refreshing.has(database)) continue;
        refreshing.add(database);
        store
          .refresh()
          .finally(() => refreshing.delete(database))
          .then(
            (changed) => changed && console.log(`${named(database)}serving snapshot ${store.manifest.snapshot}`),
            (error: unknown) =>
              consoleLogger.error(
                `${named(database)}store refresh failed, still serving snapshot ${store.manifest.snapshot}: ${error instanceof Error ? error.message : String(error)}`,
              ),
          );
      }
    }, config.refreshMs).unref();
  }

  // the answers under way are finished, then the store's leases released: a bucket's would otherwise count as held
  // for 90 s more, keeping files from a vacuum (a folder's go at exit in any case)
  const drainThenClose = async (): Promise<number> => {
    const drained = await serving.close().then(
      () => true,
      () => false,
    );
    const closed = await Promise.all(stores.map((store: EvapStore) => store.close())).then(
      () => true,
      () => false,
    );
    return drained && closed ? 0 : 1;
  };
  let stopping = false;
  const exit = options.onStopped ?? ((code: number) => process.exit(code));
  const stop = (why: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    console.log(`${why}: finishing in-flight requests`);
    void drainThenClose().then((status) => {
      // on stderr: stdout is the log that lost them
      if (lostLogLines() > 0) consoleLogger.error(`${why}: ${lostLogLines()} access log lines were lost: stdout could not be written`);
      exit(status || code);
    });
  };
  // stdout's reader gone: serve on (the log's loss is not the service's), unless asked to stop for it
  keepServingWithoutLog(() => config.exitOnLogLoss && stop('--exit-on-log-loss', LOG_LOSS_EXIT));
  // the keys file is read again on SIGHUP and whenever it changes: a revoked key stops working without a restart
  if (config.keysFile) {
    const keysFile = config.keysFile;
    const reload = (why: string) =>
      readKeysFile(keysFile).then(
        (fresh) => {
          keys.replace([...plain, ...fresh.digests]);
          for (const problem of fresh.problems) consoleLogger.error(`${why}: ${problem}`);
          console.log(`${why}: keys file reloaded, ${fresh.digests.length} keys`);
        },
        (error: unknown) =>
          consoleLogger.error(`${why}: keys file not reloaded, the previous keys stay: ${error instanceof Error ? error.message : String(error)}`),
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
  // ready only now: a SIGTERM sent on reading the line finds its handler (before, it killed the process undrained)
  if (options.announce !== false) announce(serving.url);
  return { url: serving.url };
}
