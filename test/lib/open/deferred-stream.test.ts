// A store's summaries are loaded by their first call (lib/open/deferred-stream.ts): until then a stream checks its
// options at once and plans when its first output starts, a plan's error coming before any chunk; once loaded, a
// stream plans at once as a statically imported one did. This file's process has not loaded them before its first call.
import { describe, expect, it } from 'vitest';
import { InvalidParameterError, NotFoundError } from '../../../lib/errors.js';
import { openStore } from '../../../lib/open/store.js';
import { tempDir, writeTinyStore } from '../../helpers.js';

async function text(chunks: AsyncIterable<string>): Promise<{ text: string; chunks: number }> {
  let out = '';
  let n = 0;
  for await (const chunk of chunks) {
    out += chunk;
    n++;
  }
  return { text: out, chunks: n };
}

describe('a summary asked before its module is loaded', () => {
  it('checks options at once, refuses a bad name before any chunk, and answers as the loaded module does', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const store = await openStore(dir);
    const query = {
      names: ['ALPHA LAKE', 'BETA RESERVOIR'],
      datasets: ['nete-volume-calcs'],
      variables: ['NetE'],
      interval: 'annual' as const,
      start: '2020-01-01',
      end: '2021-12-31',
    };

    // not loaded: an unknown option is still refused by the call itself
    expect(() => store.streamReservoirAggregates({ ...query, statistc: 'sum' } as never)).toThrow(InvalidParameterError);
    // a stream made before the module is loaded, to be read after: its columns filled in when planned
    const deferred = store.streamReservoirAggregates(query);
    expect(deferred.columns).toEqual([]);
    // a plan's error (an unknown name) is the first output's, before any chunk
    const refused = store.streamReservoirAggregates({ ...query, names: ['NOWHERE LAKE'] });
    let chunks = 0;
    await expect(
      (async () => {
        for await (const _ of refused.json()) chunks++;
      })(),
    ).rejects.toThrow(NotFoundError);
    expect(chunks).toBe(0);

    const late = await text(deferred.csv());
    // loaded now: the call plans at once, its error thrown by the call, its columns known before reading
    expect(() => store.streamReservoirAggregates({ ...query, names: ['NOWHERE LAKE'] })).toThrow(NotFoundError);
    const now = store.streamReservoirAggregates(query);
    expect(now.columns.length).toBeGreaterThan(2);
    expect(deferred.columns).toEqual(now.columns);
    expect(late.text).toBe((await text(now.csv())).text);
    expect(late.text.split('\n')[0]).toBe(now.columns.join(','));
    expect(late.text.split('\n').filter((l) => l.includes('ALPHA LAKE')).length, late.text).toBe(2); // 2020 and 2021
    expect(await store.streamReservoirAggregates(query).records()).toEqual(await store.reservoirAggregates(query));
    await store.close();
  });
});
