// Positional reads of a store folder against the whole file read by node:fs: any offset and length, past the end too.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openStorage } from '../../../lib/store/location.js';
import { tempDir } from '../../helpers.js';

describe('a folder as a ByteSource', () => {
  it('reads the bytes of any range, fewer only past the end of the file', async () => {
    const dir = await tempDir();
    const bytes = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256);
    await writeFile(join(dir, 'part.parquet'), bytes);
    const whole = new Uint8Array(await readFile(join(dir, 'part.parquet')));
    const source = openStorage(dir);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 3100 }), fc.integer({ min: 0, max: 500 }), async (offset, length) => {
        const got = await source.read('part.parquet', offset, length);
        expect(got).toEqual(whole.slice(offset, offset + length));
      }),
      { numRuns: 200 },
    );
    await source.close?.();
  });

  it('reads "the rest" of a small file, asked as a gigabyte, into a buffer no larger than the file', async () => {
    const dir = await tempDir();
    const bytes = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256);
    await writeFile(join(dir, 'snap-1.avro'), bytes);
    const source = openStorage(dir);
    for (const offset of [0, 1000, 3000, 4000]) {
      const got = await source.read('snap-1.avro', offset, 2 ** 30);
      expect(got).toEqual(bytes.slice(offset));
      expect(got.buffer.byteLength, `from ${offset}`).toBeLessThanOrEqual(bytes.length); // not a zeroed gigabyte
    }
    await source.close?.();
  });

  it('refuses a path outside the store, and a missing file', async () => {
    const dir = await tempDir();
    const source = openStorage(join(dir, 'store'));
    await writeFile(join(dir, 'secret'), 'x');
    await expect(source.read('../secret', 0, 1)).rejects.toThrow();
    await expect(source.read('missing.parquet', 0, 1)).rejects.toThrow();
    await source.close?.();
  });
});
