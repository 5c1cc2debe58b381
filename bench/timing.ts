// Timing helpers: a clock in milliseconds and the median of repeated runs under a time budget.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const now = (): number => performance.now();

// A full garbage collection before each series of timed runs, so that no engine's runs collect the garbage of what ran
// before them in the bench's process: warm Q3 at 44,000, the first series timed after the 44,000 records of ours and of
// DuckDB were compared, took 37 ms where the same series after a collection took 23 (bench/scale-warm.ts).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Repeated timings of an async function. */
export interface Timing {
  medianMs: number;
  minMs: number;
  runs: number;
}

/** Runs `fn` at least `minRuns` times and until `budgetMs` is spent (at most `maxRuns`); returns the median. */
export async function timeRepeated(fn: () => Promise<unknown> | unknown, options: { minRuns: number; maxRuns: number; budgetMs: number }): Promise<Timing> {
  collectGarbage();
  const samples: number[] = [];
  const began = now();
  while (samples.length < options.minRuns || (samples.length < options.maxRuns && now() - began < options.budgetMs)) {
    const t = now();
    await fn();
    samples.push(now() - t);
  }
  return { medianMs: median(samples), minMs: Math.min(...samples), runs: samples.length };
}

/** The median of runs after one unmeasured run (the caches filled), at least three, for about `budgetMs`. */
export async function warmMedian(run: () => Promise<unknown>, maxRuns: number, budgetMs: number): Promise<number> {
  await run();
  return (await timeRepeated(run, { minRuns: 3, maxRuns, budgetMs })).medianMs;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The value at fraction `p` (0..1) of the sorted values (1: the largest); undefined when there are none. */
export function percentile(values: readonly number[], p: number): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}
