// The text of an answer on one date, written a batch of names at a time from the day's kept values: each ask, in any
// order, is exactly the JSON (or CSV) of that query's records.
import { describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../../lib/format/csv.js';
import { openStore } from '../../../lib/open/store.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import type { ReservoirDateQuery } from '../../../lib/types.js';
import { tempDir } from '../../helpers.js';

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const chunk of chunks) out += chunk;
  return out;
}

// queries that differ only in what the kept text must depend on: the date, the units, the columns, the output
const queries: ReservoirDateQuery[] = [
  { date: '2021-03-30', datasets: ['rtma', 'nete-volume-calcs'], variables: ['pr', 'tmmx_c', 'NetE', 'E_volume'] },
  { date: '2021-03-31', datasets: ['rtma', 'nete-volume-calcs'], variables: ['pr', 'tmmx_c', 'NetE', 'E_volume'] },
  { date: '2021-03-31', datasets: ['rtma', 'nete-volume-calcs'], variables: ['pr', 'tmmx_c', 'NetE', 'E_volume'], units: 'english' },
  { date: '2021-03-31', datasets: ['rtma', 'nete-volume-calcs'], variables: ['tmmx_c', 'pr', 'NetE', 'E_volume'] },
  { date: '2021-03-31', datasets: ['nete-volume-calcs'], variables: ['NetE'] },
  { date: '2021-03-31', datasets: ['nete-volume-calcs'], variables: ['NetE'], alsoReturn: ['STATE'] },
];

describe('every reservoir on a date as text, asked again', () => {
  it('is each time the JSON and CSV of that query records, whichever was asked before', async () => {
    const dir = await tempDir();
    await generateStore(dir, { reservoirs: 40, stations: 1, start: '2021-03-01', end: '2021-03-31', seed: 7 });
    const store = await openStore(dir);
    const expected = await Promise.all(
      queries.map(async (q) => {
        const stream = store.streamReservoirTimeseriesOnDate(q);
        const records = await stream.records();
        expect(records.length).toBeGreaterThan(0);
        return { json: JSON.stringify(records), csv: recordsToCsv(records, stream.columns) };
      }),
    );
    for (const round of [0, 1, 2])
      for (const [i, q] of round === 1 ? [...queries.entries()].reverse() : [...queries.entries()]) {
        expect(await text(store.streamReservoirTimeseriesOnDate(q).json())).toBe(expected[i]!.json);
        expect(await text(store.streamReservoirTimeseriesOnDate(q).csv())).toBe(expected[i]!.csv);
      }
    await store.close();
  });
});
