// pageOf against Array.prototype.slice over the flattened batches: any batching, offset and limit; a stream read as
// frames paged by their rows gives the slice of its records.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../lib/format/frame.js';
import { frameStream, recordStream } from '../../../lib/format/stream.js';
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

  it('pages a stream of frames by their rows: the slice of its records', async () => {
    const frame = fc.integer({ min: 0, max: 9 }).chain((rows) =>
      fc.record({
        name: fc.string(),
        days: fc.array(fc.integer({ min: -3000, max: 30000 }), { minLength: rows, maxLength: rows }),
        values: fc.array(fc.oneof(fc.double(), fc.constant(Number.NaN)), { minLength: rows, maxLength: rows }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { maxLength: 8 }), fc.nat(60), fc.integer({ min: 1, max: 30 }), async (given, offset, limit) => {
        const frames: Frame[] = given.map((f) => ({
          rows: f.days.length,
          columns: [
            { key: 'n', kind: 'same', value: f.name },
            { key: 'day', kind: 'day', days: Int32Array.from(f.days) },
            { key: 'x', kind: 'number', values: Float64Array.from(f.values) },
          ],
        }));
        const stream = frameStream(['n', 'day', 'x'], async function* () {
          yield* frames;
        });
        const all = await stream.records(); // the records of the batches' path
        const page = await pageOf(stream, offset, limit);
        expect(page.records).toEqual(all.slice(offset, offset + limit));
        expect(page.matched).toBe(all.length);
        expect(all.length).toBe(given.reduce((n, f) => n + f.days.length, 0));
      }),
    );
  });
});
