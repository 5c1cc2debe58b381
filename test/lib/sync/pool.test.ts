// The bounded pool against a plain log of what ran: every item once, never more than the limit at once, and on a
// failure or an abort no item started after it, the first reason thrown.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runPool } from '../../../lib/sync/pool.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runPool', () => {
  it('runs every item once, at most `limit` at once, and as many at once as it may', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 25 }), fc.integer({ min: 0, max: 6 }), async (delays, limit) => {
        const items = delays.map((delay, id) => ({ id, delay }));
        const done: number[] = [];
        let running = 0;
        let most = 0;
        await runPool(items, limit, undefined, async ({ id, delay }) => {
          most = Math.max(most, ++running);
          await tick(delay);
          running--;
          done.push(id);
        });
        expect([...done].sort((a, b) => a - b)).toEqual(items.map((i) => i.id));
        // a limit of 0 still runs one at a time; with items enough, the pool fills up before the first one ends
        expect(most).toBe(Math.min(Math.max(1, limit), items.length));
      }),
      { numRuns: 40 },
    );
  });

  it('starts nothing after a failure and throws the first one, once the running items end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 4 }), fc.nat(), async (count, limit, at) => {
        const failing = at % count;
        const started: number[] = [];
        const ended: number[] = [];
        let failedAt = -1;
        const error = await runPool(
          Array.from({ length: count }, (_, i) => i),
          limit,
          undefined,
          async (i) => {
            started.push(i);
            await tick(1);
            if (i === failing || i === failing + 1) {
              if (failedAt < 0) failedAt = started.length;
              ended.push(i);
              throw new Error(`item ${i}`);
            }
            ended.push(i);
          },
        ).catch((e: unknown) => e);
        expect((error as Error).message).toBe(`item ${failing}`);
        expect(started.length).toBeLessThanOrEqual(failedAt - 1 + limit); // only those already running when it failed
        expect([...ended].sort()).toEqual([...started].sort()); // it waits for them
      }),
      { numRuns: 40 },
    );
  });

  it("stops starting items on abort and throws the signal's reason", async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const error = await runPool(
      Array.from({ length: 10 }, (_, i) => i),
      2,
      controller.signal,
      async (i) => {
        started.push(i);
        if (i === 3) controller.abort(new Error('stop'));
        await tick(1);
      },
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe('stop');
    expect(started).toEqual([0, 1, 2, 3, 4].slice(0, started.length));
    expect(started.length).toBeLessThanOrEqual(5);
    const aborted = AbortSignal.abort(new Error('before'));
    const none: number[] = [];
    await expect(runPool([1, 2], 3, aborted, async (i) => void none.push(i))).rejects.toThrow('before');
    expect(none).toEqual([]);
  });
});
