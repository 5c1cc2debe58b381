// Timing helpers: a clock in milliseconds and the median of repeated runs under a time budget.

export const now = (): number => performance.now();

/** Repeated timings of an async function. */
export interface Timing {
  medianMs: number;
  minMs: number;
  runs: number;
}

/** Runs `fn` at least `minRuns` times and until `budgetMs` is spent (at most `maxRuns`); returns the median. */
export async function timeRepeated(fn: () => Promise<unknown> | unknown, options: { minRuns: number; maxRuns: number; budgetMs: number }): Promise<Timing> {
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
