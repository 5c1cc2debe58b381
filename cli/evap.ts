#!/usr/bin/env node
// The `evap` bin: cli/run.ts with this process's streams, environment and folder, then the exit.
import './compile-cache.js'; // first: the commands' modules, imported later, come from Node's compile cache where it has one
import { processIo } from './io.js';
import { run } from './run.js';

// `evap query | head` closes the pipe early: that is the reader's choice, not an error. Not so for serve, whose stdout
// is its access log: a server serves on without it (server/process/log.ts), and an exit 0 is no failure to restart
if (process.argv[2] !== 'serve')
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });

process.exitCode = await run(process.argv.slice(2), processIo());
// done: timers of an opened store (its reader lease, idle files) must not hold the process; stdout is flushed first
await new Promise<void>((done) => process.stdout.write('', () => done()));
process.exit();
