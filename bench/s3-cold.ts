// Cold answers of the library in fresh processes (bench/cold-child.ts), from a folder or a bucket (the environment
// given to the child names the bucket's endpoint).
import { coldChild } from './cold.js';
import { median } from './timing.js';

/** The median time to open `location` and answer the job in a fresh process, over `runs` processes; all must agree. */
export async function runColdOurs(location: string, job: string, runs: number): Promise<{ firstMs: number; digest: string }> {
  const samples: number[] = [];
  let digest = '';
  for (let i = 0; i < runs; i++) {
    const result = await coldChild('ours', location, job);
    if (digest && result.digest !== digest) throw new Error(`cold answers from ${location} differ between runs`);
    digest = result.digest;
    samples.push(result.firstMs);
  }
  return { firstMs: median(samples), digest };
}
