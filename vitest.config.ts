import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Test files share their worker's modules (isolate: false) instead of importing lib/ and server/ afresh each: the
// import cost about a second of CPU per file (measured). Servers, children and folders are cleaned up per test or per
// file (cleanUp in test/helpers.ts), never by a helper module's own hook, which would run once per worker. The files
// below change what a process shares (process.env, a module mock, a global, a spy on a store other files read), or
// measure the process itself (the functions that run for a request: another file's timers would count), and get a
// fresh module graph each.
const isolated = [
  'test/docs/request-path.test.ts',
  'test/contract/bucket-servers.test.ts',
  'test/cli/s3.test.ts',
  'test/lib/open/deferred-stream.test.ts', // asks a summary before any file of its process has loaded the module
  'test/lib/store/{bucket,bucket-queries,demo,snapshots}.test.ts',
  'test/lib/sync/copy.test.ts',
  'test/server/{answer-cache,databases}.test.ts',
  'test/server/keys/auth.test.ts',
  'test/server/process/adapter.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // a folder for the run where costly fixtures are made once and copied from (copySmallStore in test/helpers.ts)
    globalSetup: ['test/support/cache-folder.ts'],
    // EVAP_TEST_CPU=<file> logs each test file's CPU seconds (its own and its children's) and wall seconds there
    setupFiles: process.env.EVAP_TEST_CPU ? ['test/support/cpu-per-file.ts'] : [],
    // vitest's default is one file fewer than the cores: on 2 cores one file at a time, while most files spend their
    // time waiting on child processes, sockets and disk; one file per core (two at least) keeps both cores busy
    maxWorkers: Math.max(2, availableParallelism()),
    // the oracles of date tests (date-fns, Date getters) work in local time: pinned here as the test script pins it, so
    // `npx vitest run` from a shell elsewhere agrees (in Pacific/Kiritimati, which skipped 1994-12-31, periods failed)
    env: { TZ: 'UTC' },
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: isolated, isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolated, isolate: true } },
    ],
  },
});
