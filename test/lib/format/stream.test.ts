// recordStream: one query run per consumer, as records, JSON text or CSV text.
import { describe, expect, it } from 'vitest';
import type { OutputKind } from '../../../lib/format/emit.js';
import { collect, once, recordStream } from '../../../lib/format/stream.js';

// A query run of two batches in each output kind, counting the runs.
function fakeRun() {
  const runs: OutputKind[] = [];
  const batches: Record<OutputKind, unknown[][]> = {
    records: [[{ a: 1 }, { a: 2 }], [{ a: 3 }]],
    json: [['{"a":1}', '{"a":2}'], [], ['{"a":3}']],
    csv: [['1\n', '2\n'], ['3\n']],
  };
  async function* run(kind: OutputKind) {
    runs.push(kind);
    yield* batches[kind];
  }
  return { runs, run };
}

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const chunk of chunks) out += chunk;
  return out;
}

describe('recordStream', () => {
  it('gives the records, a JSON array and CSV with the header, each from a run of its own', async () => {
    const { runs, run } = fakeRun();
    const stream = recordStream(['a'], run);
    expect(stream.columns).toEqual(['a']);
    expect(await collect(stream)).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
    expect(await text(stream.json())).toBe('[{"a":1},{"a":2},{"a":3}]');
    expect(await text(stream.csv())).toBe('a\n1\n2\n3\n');
    expect(runs).toEqual(['records', 'json', 'csv']);
  });

  it('runs the query afresh on each iteration and not before', async () => {
    const { runs, run } = fakeRun();
    const stream = recordStream(['a'], run);
    expect(runs).toEqual([]);
    await collect(stream);
    await collect(stream);
    expect(runs).toEqual(['records', 'records']);
  });

  it('answers an empty JSON array and a lone header for no records', async () => {
    const stream = recordStream(['a', 'b'], async function* () {});
    expect(await text(stream.json())).toBe('[]');
    expect(await text(stream.csv())).toBe('a,b\n');
    expect(await collect(stream)).toEqual([]);
  });
});

describe('once', () => {
  it('yields what make answers as one batch', async () => {
    const batches: unknown[][] = [];
    for await (const batch of once(async () => [1, 2])) batches.push(batch);
    expect(batches).toEqual([[1, 2]]);
  });
});
