import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Files that start no server and no process and change no global state (process.env, vi mocks) share their worker's
// modules instead of importing lib/ afresh each (isolate: false): 51 such files of test/lib took 28 s of CPU instead of 48
// (measured). The others, listed here or outside these folders, get a fresh module graph each: the server harness
// registers its clean-up once per module, and env or mocks would leak into the next file.
const sharedOutsideLib = [
  'test/{layout,package}.test.ts',
  'test/cli/{args,command,output,problems,progress}.test.ts',
  'test/contract/{examples,golden,ignored,paths,shapefile,time-words}.test.ts',
  'test/server/keys/{rate,requests}.test.ts',
  'test/server/{admission,answer-formats,app,errors,flags,format,multipart,openapi,post-routes,provenance,routes,summary-routes,whole-response}.test.ts',
];
const isolatedInLib = [
  'test/lib/ingest/ingest.test.ts',
  'test/lib/store/{bucket-queries,bucket,crash,demo,location,queries,s3,snapshots,store}.test.ts',
  'test/lib/sync/{client,client-hostile,copy,mirror-update,mirror}.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one file fewer than the cores: on 2 cores one file at a time, while most files spend their
    // time waiting on child processes, sockets and disk; one file per core (two at least) keeps both cores busy
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/lib/**/*.test.ts', ...sharedOutsideLib], exclude: isolatedInLib, isolate: false } },
      {
        extends: true,
        test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: ['test/lib/**', ...sharedOutsideLib], isolate: true },
      },
      { extends: true, test: { name: 'isolated-lib', include: isolatedInLib, isolate: true } },
    ],
  },
});
