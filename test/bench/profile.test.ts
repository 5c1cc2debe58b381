// The summary of a CPU profile printed beside a cold answer behind DuckDB's: shares of the samples by function and by
// file, from a profile written out by hand.
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type CpuProfile, summarizeProfile } from '../../bench/profile.js';
import { repoRoot } from '../../bench/store.js';

const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });

describe('summarizeProfile', () => {
  it('sums self samples by function and by file, naming packages by name and the repository by its paths', () => {
    const profile: CpuProfile = {
      startTime: 0,
      endTime: 80_000, // µs
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), hitCount: 0 },
        { id: 2, callFrame: frame('readPage', 'file:///x/node_modules/hyparquet/src/column.js', 86), hitCount: 30 },
        { id: 3, callFrame: frame('numbersOf', `${pathToFileURL(repoRoot).href}/lib/store/parquet-decode.ts`), hitCount: 40 },
        { id: 4, callFrame: frame('numbersOf', `${pathToFileURL(repoRoot).href}/lib/store/parquet-decode.ts`), hitCount: 10 }, // another call path
        { id: 5, callFrame: frame('(garbage collector)', ''), hitCount: 20 },
      ],
    };
    expect(summarizeProfile(profile)).toEqual([
      'profile of one more run (80 ms, 100 samples)',
      'by function: numbersOf lib/store/parquet-decode.ts 50%; readPage hyparquet:87 30%; (garbage collector) 20%',
      'by file: lib/store/parquet-decode.ts 50%; hyparquet 30%; (garbage collector) 20%',
    ]);
  });

  it("names a file outside the repository by its whole path, even in a folder whose name ends with the repository's", () => {
    // a clone in p/ under /tmp once had /tmp/... cut at "p/"; here the folder's name is the repository's with a prefix
    const outside = `/elsewhere/x${basename(repoRoot)}/lib/a.ts`;
    const profile: CpuProfile = { startTime: 0, endTime: 1000, nodes: [{ id: 1, callFrame: frame('f', `file://${outside}`), hitCount: 1 }] };
    expect(summarizeProfile(profile)[2]).toBe(`by file: ${outside} 100%`);
  });

  it('says when a profile has no samples', () => {
    expect(summarizeProfile({ startTime: 0, endTime: 1, nodes: [{ id: 1, callFrame: frame('(root)', ''), hitCount: 0 }] })).toEqual(['no samples']);
  });
});
