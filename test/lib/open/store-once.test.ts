// openStoreOnce: a notebook cell run again gets the store it opened before, and a failed open is tried again.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStoreOnce } from '../../../lib/open/store-once.js';
import { defaultStoreDir } from '../../../lib/synthetic/demo.js';
import { tempDir } from '../../helpers.js';

describe('openStoreOnce', () => {
  it('returns the same store for the same location, another for another', async () => {
    const demo = defaultStoreDir();
    const first = await openStoreOnce(demo);
    expect(await openStoreOnce(demo)).toBe(first);
    expect(await openStoreOnce()).not.toBe(first); // keyed by what was asked: the default is its own entry
    expect(await openStoreOnce()).toBe(await openStoreOnce());
  });

  it('does not keep a failed open', async () => {
    const missing = join(await tempDir(), 'nothing-here');
    const first = openStoreOnce(missing);
    await expect(first).rejects.toThrow(/manifest/);
    const second = openStoreOnce(missing);
    expect(second).not.toBe(first);
    await expect(second).rejects.toThrow(/manifest/);
  });
});
