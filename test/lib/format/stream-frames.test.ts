// frameStream: every output of frames is what the records of a plain loop give. Tables have recordsToTable's types
// (dates by name, issued and valid dates as text, counts Int32 by name, numbers Float64, a column of gaps only text),
// nullability and units, and their rows; a table of many pieces joins them under one schema.

import type { Table } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsToTable } from '../../../lib/format/answer-table.js';
import { recordsToCsv } from '../../../lib/format/csv.js';
import type { Frame, FrameColumn } from '../../../lib/format/frame.js';
import { frameStream } from '../../../lib/format/stream.js';
import type { WireValue } from '../../../lib/types.js';
import { roundValue } from '../../../lib/units.js';

const isoDay = (day: number) => new Date(day * 864e5).toISOString().slice(0, 10);
const finite = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: -1000, max: 1000 }), fc.constant(NaN));
const label: fc.Arbitrary<WireValue> = fc.oneof(fc.constantFrom('a', 'MM-DD', '1-7'), fc.integer(), fc.constant(null));

// one frame of `rows` rows with the columns of the answers: a name, dates, counts, measurements, labels, attributes
function frameOf(rows: number, gapsOnly: boolean): fc.Arbitrary<Frame> {
  const numbers = (arb: fc.Arbitrary<number>) => fc.array(gapsOnly ? fc.constant(NaN) : arb, { minLength: rows, maxLength: rows });
  const days = fc.array(fc.integer({ min: -20_000, max: 40_000 }), { minLength: rows, maxLength: rows });
  return fc
    .record({
      name: fc.constantFrom('LAKE MEAD', 'O"NEIL, LAKE', 'Réservoir 湖'),
      issued: days,
      start: days,
      counts: numbers(fc.integer({ min: 0, max: 400 })),
      values: numbers(finite),
      leads: numbers(fc.integer({ min: 1, max: 28 })),
      labels: fc.array(label, { minLength: rows, maxLength: rows }),
      state: fc.oneof(fc.constantFrom('NV', 'AZ'), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)),
    })
    .map(
      (r): Frame => ({
        rows,
        columns: [
          { key: 'RES_NAME', kind: 'same', value: r.name },
          { key: 'issued', kind: 'day', days: Int32Array.from(r.issued) },
          { key: 'start_date', kind: 'day', days: Int32Array.from(r.start) },
          { key: 'n_days', kind: 'number', values: Float64Array.from(r.counts) },
          { key: 'E (mm) mean', kind: 'number', values: Float64Array.from(r.values), variable: 'E', unit: 'mm', statistic: 'mean' },
          { key: 'lead_days', kind: 'number', values: Float64Array.from(r.leads) },
          { key: 'label', kind: 'value', values: r.labels },
          { key: 'STATE', kind: 'same', value: r.state },
        ],
      }),
    );
}

const columns = ['RES_NAME', 'issued', 'start_date', 'n_days', 'E (mm) mean', 'lead_days', 'label', 'STATE'];

function plainRecords(frames: readonly Frame[]): Record<string, WireValue>[] {
  const out = [];
  for (const f of frames)
    for (let i = 0; i < f.rows; i++) {
      const record: Record<string, WireValue> = {};
      for (const c of f.columns as FrameColumn[]) {
        if (c.kind === 'day') record[c.key] = isoDay(c.days[i]!);
        else if (c.kind === 'number') record[c.key] = Number.isNaN(c.values[i]!) ? null : roundValue(c.values[i]!);
        else if (c.kind === 'label') record[c.key] = c.labels[c.at[i]!]!;
        else record[c.key] = c.kind === 'value' ? c.values[i]! : c.value;
      }
      out.push(record);
    }
  return out;
}

const streamOf = (frames: readonly Frame[]) =>
  frameStream(columns, async function* () {
    yield* frames;
  });

function tableShape(table: Table) {
  return {
    fields: table.schema.fields.map((f) => [f.name, String(f.type), f.nullable, [...f.metadata]]),
    rows: table.toArray().map((row) => JSON.stringify(row.toJSON())),
  };
}

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const chunk of chunks) out += chunk;
  return out;
}

describe('frameStream', () => {
  it('gives the records, JSON, CSV and table the plain records give', async () => {
    const frames = fc.array(
      fc.tuple(fc.integer({ min: 0, max: 6 }), fc.boolean()).chain(([rows, gaps]) => frameOf(rows, gaps)),
      { maxLength: 4 },
    );
    await fc.assert(
      fc.asyncProperty(frames, async (fs) => {
        const records = plainRecords(fs);
        const stream = streamOf(fs);
        expect(await stream.records()).toStrictEqual(records);
        expect(await text(stream.json())).toBe(JSON.stringify(records));
        expect(await text(stream.csv())).toBe(recordsToCsv(records, columns));
        expect(tableShape(await stream.table())).toEqual(tableShape(recordsToTable(records, columns)));
      }),
      { numRuns: 150 },
    );
  });

  it('joins a table of many pieces, the first without gaps and the last with some, under one schema', async () => {
    const rows = 2000;
    const frames = Array.from(
      { length: 12 },
      (_, f): Frame => ({
        rows,
        columns: [
          { key: 'RES_NAME', kind: 'same', value: `LAKE ${f}` },
          { key: 'start_date', kind: 'day', days: Int32Array.from({ length: rows }, (_, i) => 18_000 + i) },
          { key: 'E (mm)', kind: 'number', values: Float64Array.from({ length: rows }, (_, i) => (f > 8 && i % 5 === 0 ? NaN : i / 7)) },
        ],
      }),
    );
    const stream = frameStream(['RES_NAME', 'start_date', 'E (mm)'], async function* () {
      yield* frames;
    });
    const table = await stream.table();
    expect(table.batches.length).toBeGreaterThan(1);
    expect(table.numRows).toBe(12 * rows);
    const whole = recordsToTable(plainRecords(frames), ['RES_NAME', 'start_date', 'E (mm)']);
    expect(table.schema.fields.map((f) => f.nullable)).toEqual(whole.schema.fields.map((f) => f.nullable));
    expect(table.getChild('E (mm)')!.toArray()).toEqual(whole.getChild('E (mm)')!.toArray());
    expect(table.getChild('start_date')!.toArray()).toEqual(whole.getChild('start_date')!.toArray());
  });

  it('refuses a table of more values than allowed before and while reading', async () => {
    const frames = [0, 1, 2].map((f): Frame => ({ rows: 10, columns: [{ key: 'RES_NAME', kind: 'same', value: `L${f}` }] }));
    const unbounded = frameStream(['RES_NAME'], async function* () {
      yield* frames;
    });
    await expect(unbounded.table(25)).rejects.toThrow(/at most 25 values/);
    expect((await unbounded.table(30)).numRows).toBe(30);
    let read = 0;
    const bounded = frameStream(
      ['RES_NAME'],
      async function* () {
        read++;
        yield* frames;
      },
      0,
      30,
    );
    await expect(bounded.table(29)).rejects.toThrow(/at most 29 values/);
    expect(read).toBe(0);
  });
});
