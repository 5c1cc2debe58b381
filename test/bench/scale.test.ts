// The scale curve end to end on two tiny stores: every measurement runs and the report marks each target. No timings checked.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScale } from '../../bench/scale.js';
import { renderChart, renderScale, scaleTargets } from '../../bench/scale-report.js';
import type { StoreScale } from '../../bench/store.js';

const dir = await mkdtemp(join(tmpdir(), 'evap-bench-scale-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('runScale', () => {
  it('measures stores of two sizes, revises them through evap ingest and reports the curve', async () => {
    const scales: StoreScale[] = [4, 12].map((reservoirs) => ({
      reservoirs,
      stations: 2,
      start: '2021-01-01',
      end: '2021-12-31',
      stationStart: '2021-01-01',
      stationEnd: '2021-12-31',
    }));
    const rows = await runScale(scales, { coldRuns: 1, httpSeconds: 0, dirOf: (s) => join(dir, String(s.reservoirs)), log: () => {} });
    expect(rows.map((r) => r.reservoirs)).toEqual([4, 12]);
    for (const r of rows) {
      expect(r.queries.map((q) => [q.id, q.records])).toEqual([
        ['Q1', 365],
        ['Q3', r.reservoirs],
        ['Q7', 365 * r.reservoirs],
        ['Q3L', r.reservoirs],
      ]);
      expect(r.revision.records).toBe(65 * r.reservoirs);
      expect(r.revision.filesWritten).toBeGreaterThan(0);
    }
    const text = renderScale(rows, 'scale.svg');
    expect(text).toContain('![cost against the number of water bodies](scale.svg)');
    expect(scaleTargets(rows).length).toBe(2 * (4 * 2 + 2) + 1); // Q1, Q3, Q7 and Q3L cold and warm, open and RSS, per store; and the generation
    expect(renderChart(rows)).toMatch(/^<svg[\s\S]*<polyline[\s\S]*<\/svg>\n$/);
  }, 120_000);
});
