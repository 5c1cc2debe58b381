// JSON array chunks against JSON.parse: whatever the batches, the chunks joined are the JSON array of every object in order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonArrayChunks } from '../../../lib/format/json.js';

async function* from<T>(batches: T[]): AsyncGenerator<T> {
  for (const b of batches) yield b;
}
async function chunksOf(batches: string[][]): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of jsonArrayChunks(from(batches))) out.push(chunk);
  return out;
}

const record = fc.dictionary(
  fc.string({ maxLength: 5 }),
  fc.oneof(fc.string({ maxLength: 5 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)),
  { maxKeys: 4 },
);
// a batch element is the text of one or more objects separated by commas, or '' (a block that made no record)
const element = fc.oneof(fc.array(record, { minLength: 1, maxLength: 3 }), fc.constant([]));

describe('jsonArrayChunks', () => {
  it('makes the JSON array of every object of every batch, in order, one chunk a non-empty batch', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(element, { maxLength: 4 }), { maxLength: 6 }), async (batches) => {
        const texts = batches.map((batch) => batch.map((objects) => objects.map((o) => JSON.stringify(o)).join(',')));
        const chunks = await chunksOf(texts);
        const objects = batches.flat(2);
        // parsed as JSON makes them (-0 is written 0: comparing with the objects themselves failed whenever a -0 was drawn)
        expect(JSON.parse(chunks.join(''))).toEqual(JSON.parse(JSON.stringify(objects)));
        expect(chunks.join('')).toBe(JSON.stringify(objects));
        expect(chunks.length).toBe(2 + texts.filter((batch) => batch.some((t) => t !== '')).length);
      }),
    );
  });

  it('answers [] for no batches and for batches of nothing', async () => {
    expect((await chunksOf([])).join('')).toBe('[]');
    expect((await chunksOf([[], [''], ['', '']])).join('')).toBe('[]');
  });
});
