// Bounded concurrency for writers that copy many things (mirror, copy): one mechanism, so both stop alike.

/** Runs `work` on every item with at most `limit` at once; stops starting new ones on the first failure or on abort, then throws it. */
export async function runPool<T>(items: readonly T[], limit: number, signal: AbortSignal | undefined, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (next < items.length && failure === undefined) {
      if (signal?.aborted) {
        failure ??= signal.reason;
        return;
      }
      await work(items[next++]!).catch((error: unknown) => {
        failure ??= error;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
  if (failure !== undefined) throw failure;
}
