// The what-if daily answer, written from frames, is byte for byte the records a plain loop makes of the same model run
// (each value converted and rounded), JSON.stringify and recordsToCsv of them; its table is the one its records made.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../../lib/format/csv.js';
import { recordsToTableInPieces } from '../../../lib/format/table-pieces.js';
import { modelDatasets } from '../../../lib/model/run.js';
import { modelReservoirs } from '../../../lib/query/modelled.js';
import { planReservoirRange } from '../../../lib/query/plan.js';
import { streamReservoirModel } from '../../../lib/query/what-if.js';
import type { Snapshot } from '../../../lib/store/open-snapshot.js';
import type { WireRecord, WireValue } from '../../../lib/types.js';
import { convert, roundValue } from '../../../lib/units.js';
import { day, type OpenSmallStore, openSmallStore, smallStoreRange, tableRecords } from '../../helpers.js';

let small: OpenSmallStore;
let s: Snapshot;
beforeAll(async () => {
  small = await openSmallStore({ copy: true });
  s = (small.store as unknown as { snapshot: Snapshot }).snapshot; // the snapshot the store's methods read
});
afterAll(() => small.store.close());

// the records of the same model run made by a plain loop: a record a name and day, keys in the answer's order
async function plainRecords(query: Parameters<typeof planReservoirRange>[1]): Promise<WireRecord[]> {
  const plan = planReservoirRange(s, { ...query, datasets: [...modelDatasets] });
  const run = await modelReservoirs(s, plan.names, plan.startDay, plan.endDay);
  const out: WireRecord[] = [];
  run.names.forEach((name, b) => {
    const attached = plan.attach(name);
    for (let t = 0; t < run.days; t++) {
      const date = new Date((plan.startDay + t) * 864e5).toISOString().slice(0, 10);
      const record: WireRecord = { RES_NAME: name, start_date: date, end_date: date };
      for (const v of plan.columns) {
        const x = convert(run.values[v.name as 'E_hs'][b * run.days + t]!, v);
        record[v.key] = x !== x ? null : (roundValue(x) as WireValue);
      }
      for (const key of Object.keys(attached)) if (key !== 'RES_NAME') record[key] = attached[key]!;
      out.push(record);
    }
  });
  return out;
}

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let all = '';
  for await (const chunk of chunks) all += chunk;
  return all;
}

describe('the what-if daily answer on frames', () => {
  it('writes the records of a plain loop, and their JSON and CSV, byte for byte', async () => {
    const [first, last] = [day(smallStoreRange.start), day(smallStoreRange.end)];
    const date = (d: number) => new Date(d * 864e5).toISOString().slice(0, 10);
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(small.names, { minLength: 1 }),
        fc.constantFrom('metric', 'english' as const),
        fc.subarray(['LAT', 'ELEV_M', 'RES_NAME', 'STATE']),
        fc.integer({ min: first, max: last }),
        fc.integer({ min: 0, max: 5 }),
        async (names, units, alsoReturn, start, length) => {
          const query = { names, units, alsoReturn, start: date(start), end: date(Math.min(last, start + length)) };
          const stream = streamReservoirModel(s, query);
          const records = await stream.records();
          const plain = await plainRecords(query);
          expect(records).toEqual(plain);
          const json = await text(stream.json());
          expect(json).toBe(JSON.stringify(plain)); // key order too
          const csv = await text(stream.csv());
          expect(csv).toBe(recordsToCsv(plain, stream.columns));
          expect(csv).toBe(recordsToCsv(records, stream.columns));
          // the table, now built from the frames' columns, as it was built from the records
          const table = await stream.table();
          const before = await recordsToTableInPieces(records, stream.columns);
          expect(table.schema.fields.map(String)).toEqual(before.schema.fields.map(String));
          expect(tableRecords(table)).toEqual(tableRecords(before));
          expect(records.length).toBe(names.length * (Math.min(last, start + length) - start + 1));
        },
      ),
      { numRuns: 12 },
    );
  });
});
