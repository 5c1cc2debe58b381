// The bench script end to end on a tiny store, one iteration, no HTTP: every query agrees with DuckDB. No timings checked.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBench } from '../../bench/main.js';

const dir = await mkdtemp(join(tmpdir(), 'evap-bench-smoke-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('runBench', () => {
  it('runs every query on a tiny store and writes the results table', async () => {
    const results = join(dir, 'RESULTS.md');
    const run = await runBench({
      smoke: true,
      store: join(dir, 'store'),
      results,
      http: false,
      httpDurationS: 1,
      connections: 16,
      coldRuns: 1,
      scales: [],
      command: 'npm run bench -- --smoke',
      log: () => {},
    });
    expect(run.warm.map((w) => w.id)).toEqual(['Q1', 'Q2', 'Q3', 'Q4', 'Q5', 'Q6', 'Q7']);
    expect(run.warm.every((w) => w.records > 0)).toBe(true);
    expect(run.cold.map((c) => c.id)).toEqual(['Q1']);
    const text = await readFile(results, 'utf8');
    expect(text).toContain('| query | records |');
    expect(text).toContain('node v');
  }, 60_000);
});
