// Cold timings: a fresh process per run that opens the store (or a DuckDB instance) and answers one query.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { MismatchError } from './compare.js';
import { type BenchQuery, duckdbSql } from './queries.js';
import { repoRoot } from './store.js';
import { median } from './timing.js';

export interface ColdEngineTiming {
  firstMs: number; // median: open + first answer, measured inside the child after its imports
  processMs: number; // median: the whole child process, spawn to exit (node start-up, tsx, imports included)
  runs: number;
}

export interface ColdRow {
  id: string;
  ours: ColdEngineTiming;
  duckdb: ColdEngineTiming;
}

/** Runs the query cold `runs` times per engine, alternating engines; each answer must match the warm one's digest. */
export async function runCold(root: string, query: BenchQuery, expectedDigest: string, runs: number): Promise<ColdRow> {
  const job = JSON.stringify({ spec: query.spec, sql: duckdbSql(root, query.spec, query.format), format: query.format });
  const samples = { ours: [] as { firstMs: number; processMs: number }[], duckdb: [] as { firstMs: number; processMs: number }[] };
  for (let i = 0; i < runs; i++) {
    for (const engine of ['ours', 'duckdb'] as const) {
      const result = await coldChild(engine, root, job);
      if (result.digest !== expectedDigest) throw new MismatchError(`${query.id} cold (${engine}): the answer differs from the warm one`);
      samples[engine].push(result);
    }
  }
  const summary = (list: { firstMs: number; processMs: number }[]): ColdEngineTiming => ({
    firstMs: median(list.map((s) => s.firstMs)),
    processMs: median(list.map((s) => s.processMs)),
    runs: list.length,
  });
  return { id: query.id, ours: summary(samples.ours), duckdb: summary(samples.duckdb) };
}

/** One fresh process (bench/cold-child.ts) that opens `root` (a folder or s3://) and answers the job: its timings and the answer's digest. */
export function coldChild(engine: 'ours' | 'duckdb', root: string, job: string): Promise<{ firstMs: number; processMs: number; digest: string }> {
  const began = performance.now();
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', 'cold-child.ts'), engine, root, job], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('error', fail);
    proc.on('exit', (code) => {
      const processMs = performance.now() - began;
      if (code !== 0) return fail(new Error(`cold ${engine} run exited with code ${code}: ${err.trim()}`));
      const { firstMs, digest } = JSON.parse(out.trim().split('\n').pop()!) as { firstMs: number; digest: string };
      done({ firstMs, processMs, digest });
    });
  });
}
