// evap serve: the HTTP server (what `npm start` runs), with every flag of server/process/config.ts.

import { startServer } from '../../server/main.js';
import { readConfig, usage as serverUsage } from '../../server/process/config.js';
import { UsageError } from '../command.js';
import type { CliIo } from '../io.js';
import { startedByNpm, stopWhenOrphaned } from '../orphan.js';

export const usage = `${serverUsage.replace(/^usage: /, '')}
  Serves the OperEvap API on http://HOST:PORT; prints "listening on ..." when ready; stops on SIGTERM or SIGINT.`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  try {
    readConfig(argv, io.env); // a mistake is a usage error here, before anything starts
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  // the parent now: npm could die while the server starts (its SIGTERM handler comes last), and the one read after
  // would be the new one, never left (seen: a server running on after its parent died mid-start, under load)
  const parent = process.ppid;
  await startServer(argv, io.env);
  if (startedByNpm(io.env)) stopWhenOrphaned(parent); // npx does not pass SIGTERM on (docs/deploying.md)
  return new Promise<number>(() => {}); // serves until a signal stops the process
}
