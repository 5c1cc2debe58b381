// The what-if daily answer, written from frames, is byte for byte the text the generated emitters of the daily records
// write from the same model run (the encoder it had before), and its records and text agree with JSON.stringify and
// recordsToCsv of its records; its table is the one its records made.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvTextChunks, recordsToCsv } from '../../../lib/format/csv.js';
import type { OutputKind } from '../../../lib/format/emit.js';
import { emitWithFlags, RecordBuilder } from '../../../lib/format/emit.js';
import { recordsToTableInPieces } from '../../../lib/format/table-pieces.js';
import { modelDatasets } from '../../../lib/model/run.js';
import { modelReservoirs } from '../../../lib/query/modelled.js';
import { planReservoirRange } from '../../../lib/query/plan.js';
import { streamReservoirModel } from '../../../lib/query/what-if.js';
import type { Snapshot } from '../../../lib/store/open-snapshot.js';
import { day, type OpenSmallStore, openSmallStore, smallStoreRange, tableRecords } from '../../helpers.js';

let small: OpenSmallStore;
let s: Snapshot;
beforeAll(async () => {
  small = await openSmallStore({ copy: true });
  s = (small.store as unknown as { snapshot: Snapshot }).snapshot; // the snapshot the store's methods read
});
afterAll(() => small.store.close());

// the old encoder: each name's block of the model run through the generated emitters, pieces joined as the stream joins them
async function emitted(query: Parameters<typeof planReservoirRange>[1], kind: OutputKind): Promise<unknown[]> {
  const plan = planReservoirRange(s, { ...query, datasets: [...modelDatasets] });
  const run = await modelReservoirs(s, plan.names, plan.startDay, plan.endDay);
  const builder = new RecordBuilder('RES_NAME', plan.columns, kind, s.codegen);
  const days = Int32Array.from({ length: run.days }, (_, t) => plan.startDay + t);
  const out: unknown[] = [];
  run.names.forEach((name, b) => {
    const columns = plan.columns.map((v) => run.values[v.name as 'E_hs'].subarray(b * run.days, (b + 1) * run.days));
    emitWithFlags(builder, out, name, { days, columns }, plan.attach(name), new Map());
  });
  return out;
}

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let all = '';
  for await (const chunk of chunks) all += chunk;
  return all;
}

describe('the what-if daily answer on frames', () => {
  it('writes the bytes the generated emitters wrote, in records, JSON and CSV', async () => {
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
          expect(records).toEqual(await emitted(query, 'records'));
          const json = await text(stream.json());
          expect(json).toBe(`[${(await emitted(query, 'json')).join(',')}]`);
          expect(json).toBe(JSON.stringify(records));
          const csv = await text(stream.csv());
          const rows = (await emitted(query, 'csv')) as string[];
          expect(csv).toBe(
            await text(
              csvTextChunks(
                stream.columns,
                (async function* () {
                  yield rows;
                })(),
              ),
            ),
          );
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
