import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one file fewer than the cores: on 2 cores one file at a time, while most files spend their
    // time waiting on child processes, sockets and disk; one file per core (two at least) keeps both cores busy
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
