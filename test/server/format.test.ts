// Answers as the server makes them: a long answer streamed from a warm cache still lets other work in between chunks.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../lib/store/store.js';
import { streamResponse } from '../../server/format.js';

describe('streamResponse', () => {
  it('yields to the event loop between the chunks of a long answer', async () => {
    const store = await openStore();
    const query = { names: store.manifest.reservoirs.names, datasets: ['rtma'], start: '2019-01-01', end: '2021-12-31' };
    const stream = () => store.streamReservoirTimeseries(query);
    for await (const chunk of stream().json()) void chunk; // fill the cache: every later chunk is ready at once
    const reader = (await streamResponse('json', stream())).body!.getReader();
    let chunks = 0;
    let chunksWhenTimerFired = -1;
    setTimeout(() => (chunksWhenTimerFired = chunks), 0);
    while (!(await reader.read()).done) chunks++;
    expect(chunks).toBeGreaterThan(50);
    expect(chunksWhenTimerFired).toBeGreaterThanOrEqual(0);
    expect(chunksWhenTimerFired).toBeLessThan(chunks / 4); // a small request waits a chunk or two, not the whole answer
  });
});
