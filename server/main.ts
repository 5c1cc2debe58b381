// `evap serve` (and `npm start`): read the settings, then serve with one process or several (server/process/cluster.ts).
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runServer as serveWith } from './process/cluster.js';
import { type Config, readConfig, usage } from './process/config.js';

/** Starts the server (one process, or a cluster with --workers) with these flags and environment; runs until SIGTERM or SIGINT. */
export async function startServer(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let config: Config;
  try {
    config = readConfig(argv, env);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    process.exit(2);
  }
  await serveWith(config);
}

/** startServer, exiting 1 with the reason when it cannot start. */
function runServer(argv?: readonly string[], env?: NodeJS.ProcessEnv): void {
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
