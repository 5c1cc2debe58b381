// Cold answers of the library in fresh processes (bench/cold-child.ts), from a folder or a bucket (the environment
// given to the child names the bucket's endpoint).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './store.js';
import { median } from './timing.js';

/** The median time to open `location` and answer the job in a fresh process, over `runs` processes; all must agree. */
export async function runColdOurs(location: string, job: string, runs: number): Promise<{ firstMs: number; digest: string }> {
  const samples: number[] = [];
  let digest = '';
  for (let i = 0; i < runs; i++) {
    const result = await new Promise<{ firstMs: number; digest: string }>((done, fail) => {
      const proc = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', 'cold-child.ts'), 'ours', location, job], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      proc.on('exit', (code) =>
        code === 0 ? done(JSON.parse(out.trim().split('\n').pop()!)) : fail(new Error(`cold run exited with code ${code}: ${err.trim()}`)),
      );
    });
    if (digest && result.digest !== digest) throw new Error(`cold answers from ${location} differ between runs`);
    digest = result.digest;
    samples.push(result.firstMs);
  }
  return { firstMs: median(samples), digest };
}
