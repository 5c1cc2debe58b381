// Reader leases on a real store folder, checked by listing the folder: one file per lease naming the snapshot and this
// process, gone when released; a store that cannot be written gets no lease and no error.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leaseSequence, READERS_FOLDER, takeLease } from '../../../lib/store/lease.js';
import { openStorage } from '../../../lib/store/location.js';
import { tempDir } from '../../helpers.js';

const leases = async (dir: string) => (await readdir(join(dir, READERS_FOLDER)).catch(() => [] as string[])).filter((n) => n.endsWith('.lease'));

describe('takeLease', () => {
  it('writes one file per lease in readers/, named by the snapshot and this process, and removes it on release', async () => {
    const dir = await tempDir();
    const storage = openStorage(dir);
    const first = await takeLease(storage, 7);
    const second = await takeLease(storage, 7); // two readers of one snapshot in one process: two leases
    const other = await takeLease(storage, 12);
    const names = await leases(dir);
    expect(names).toHaveLength(3);
    for (const name of names) {
      const [sequence, pid, random, suffix] = name.split('.');
      expect([pid, suffix, random!.length]).toEqual([String(process.pid), 'lease', 8]);
      expect(['7', '12']).toContain(sequence);
      expect((await readFile(join(dir, READERS_FOLDER, name), 'utf8')).split(' ')[0]).toBe(String(process.pid)); // the holder, for vacuum
    }
    expect(await Promise.all((await storage.list(READERS_FOLDER)).map((f) => storage.markerAlive(f)))).toEqual([true, true, true]);
    await first();
    expect((await leases(dir)).filter((n) => n.startsWith('7.'))).toHaveLength(1);
    await second();
    await other();
    expect(await leases(dir)).toEqual([]);
  });

  it('gives a store that cannot be written no lease, and no error', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, READERS_FOLDER), 'a file where the folder would be'); // writing readers/… fails, even for root
    const release = await takeLease(openStorage(dir), 3);
    await release();
    expect(await readFile(join(dir, READERS_FOLDER), 'utf8')).toBe('a file where the folder would be');
  });
});

describe('leaseSequence', () => {
  it('reads back the sequence number of any lease path', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.nat(),
        fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 8, maxLength: 8 }),
        (sequence, pid, random) => leaseSequence(`${READERS_FOLDER}/${sequence}.${pid}.${random}.lease`) === sequence,
      ),
    );
  });
});
