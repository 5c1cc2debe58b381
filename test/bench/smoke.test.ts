// The bench end to end on a tiny store: the in-process queries, then the one table (every query cold in a fresh process
// and warm, each answer compared with DuckDB's), a revision through evap ingest, and the report with a column left out
// marked "not run". No timings checked.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEPT_SECTIONS, runBench } from '../../bench/main.js';
import { renderChart, scaleTargets } from '../../bench/scale-report.js';
import { curveScales, smokeScale } from '../../bench/store.js';

const dir = await mkdtemp(join(tmpdir(), 'evap-bench-smoke-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('runBench', () => {
  it('runs every query on a tiny store, cold and warm beside DuckDB, and writes the one table', async () => {
    const results = join(dir, 'RESULTS.md');
    await writeFile(results, `# an older run\n\n${KEPT_SECTIONS}\n## Another bench\n\nits table\n`);
    const run = await runBench({
      smoke: true,
      store: join(dir, 'store'),
      results,
      http: false,
      httpDurationS: 1,
      connections: 16,
      coldRuns: 1,
      scales: [smokeScale],
      columns: [smokeScale, curveScales[1]!], // the second one not measured
      command: 'npm run bench -- --smoke',
      log: () => {},
    });
    expect(run.warm.map((w) => w.id)).toEqual(['Q1', 'Q2', 'Q3', 'Q4', 'Q5', 'Q6', 'Q7']);
    expect(run.warm.every((w) => w.records > 0)).toBe(true);

    expect(run.scale).toHaveLength(1);
    const [row] = run.scale;
    const reservoirs = smokeScale.reservoirs;
    // the store's last year is 2021 (365 days); Q2 is June to August (92 days) of three reservoirs; Q4 is 2019-2021;
    // Q5 is 2020-2021
    expect(row!.queries.map((q) => [q.id, q.records])).toEqual([
      ['Q1', 365],
      ['Q2', 3 * 92],
      ['Q3', reservoirs],
      ['Q4', 365 * 3 + 1],
      ['Q5', 366 + 365],
      ['Q6', smokeScale.stations],
      ['Q7', 365 * reservoirs],
      ['Q3L', reservoirs],
    ]);
    for (const q of row!.queries) {
      expect(q.checked).toBe(true); // compared with DuckDB record by record
      // the smoke run measures one JSON answer (Q1) and one CSV answer (Q4) cold, in fresh processes; every one warm
      const cold = q.id === 'Q1' || q.id === 'Q4' ? [q.oursCold, q.duckCold] : [];
      for (const t of [...cold, q.oursWarm, q.duckWarm]) expect(t).toBeGreaterThan(0);
      if (cold.length === 0) expect(q.oursCold).toBeNaN();
    }
    expect(row!.revision.records).toBe(65 * reservoirs);
    expect(row!.revision.filesWritten).toBeGreaterThan(0);
    expect(scaleTargets(run.scale)).toHaveLength(2 * (2 + 8) + 1); // against DuckDB and ClickHouse: Q1 and Q4 cold, each query warm; and the open time (no HTTP run)
    expect(renderChart(run.scale)).toMatch(/^<svg[\s\S]*<polyline[\s\S]*<\/svg>\n$/);

    const text = await readFile(results, 'utf8');
    expect(text).toContain('## Every query at every scale, beside DuckDB');
    expect(text).toMatch(/\| Q1 [^\n]*\| cold \| [^|]+ms, \*\*[\d.]+×\*\*[^|]*\| not run \|/);
    expect(text).toMatch(/\| Q3L [^\n]*\| cold \| not run \| not run \|/);
    expect(text).toMatch(/\| \| warm \| [^|]+ms, \*\*[\d.]+×\*\*[^|]*\| not run \|/);
    expect(text).toContain('| query | records |');
    expect(text).toContain('node v');
    expect(text).not.toContain('an older run');
    expect(text.endsWith(`${KEPT_SECTIONS}\n## Another bench\n\nits table\n`)).toBe(true); // other benches' sections kept
  }, 240_000); // three engines now, each cold in fresh processes
});
