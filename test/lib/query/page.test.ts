// pageOf against Array.prototype.slice over the flattened batches: any batching, offset and limit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordStream } from '../../../lib/format/stream.js';
import { pageOf } from '../../../lib/query/page.js';
import type { WireRecord } from '../../../lib/types.js';

function streamOf(batches: WireRecord[][]) {
  return recordStream(['n'], async function* () {
    for (const batch of batches) yield batch;
  });
}

describe('pageOf', () => {
  it('is the slice of the whole answer, and counts it all', async () => {
    const batches = fc.array(
      fc.array(
        fc.integer().map((n): WireRecord => ({ n })),
        { maxLength: 9 },
      ),
      { maxLength: 8 },
    );
    await fc.assert(
      fc.asyncProperty(batches, fc.nat(60), fc.integer({ min: 1, max: 30 }), async (given, offset, limit) => {
        const flat = given.flat();
        const page = await pageOf(streamOf(given), offset, limit);
        expect(page.records).toEqual(flat.slice(offset, offset + limit));
        expect(page.matched).toBe(flat.length);
      }),
    );
  });
});
