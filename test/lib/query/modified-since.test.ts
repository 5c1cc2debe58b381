// changedFrames against a plain filter: the records of the newer answer that no record of the older one equals as JSON
// text, for answers cut into frames anywhere, as frames or as batches of records; written as JSON and CSV text equal
// to JSON.stringify and recordsToCsv of those records. And it reads the two answers side by side, not whole.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../../lib/format/csv.js';
import type { Frame } from '../../../lib/format/frame.js';
import { frameStream, type RecordStream, recordStream } from '../../../lib/format/stream.js';
import { changedFrames } from '../../../lib/query/modified-since.js';
import type { WireRecord } from '../../../lib/types.js';

const columns = ['RES_NAME', 'start_date', 'end_date', 'x (mm)', 'qflag'];
const DAY0 = 18262; // 2020-01-01

interface Row {
  name: string;
  day: number;
  x: number;
  flag: string | null;
}

// rows sorted by name then day, one a key; values from a few, so that many rows of two answers are equal (2.00001
// and 2.00004 are both written 2)
const answer = fc
  .uniqueArray(
    fc.record({
      name: fc.constantFrom('ALPHA', 'BETA', 'GAMMA', 'ÉTANG'),
      day: fc.integer({ min: 0, max: 6 }),
      x: fc.constantFrom(1, 2.00001, 2.00004, -0, Number.NaN, Number.POSITIVE_INFINITY),
      flag: fc.constantFrom('O', 'E', null),
    }),
    { selector: (r) => `${r.name}\t${r.day}`, maxLength: 28 },
  )
  .map((rows) => rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.day - b.day)));

// the rows cut into frames after the rows in `cuts`, a name held in a column of one value where a frame holds one name
function framesOf(rows: readonly Row[], cuts: readonly number[], extra: boolean): Frame[] {
  const ends = [...new Set([...cuts.filter((c) => c < rows.length), rows.length])].sort((a, b) => a - b);
  let from = 0;
  return ends.map((to) => {
    const part = rows.slice(from, to);
    from = to;
    const days = Int32Array.from(part, (r) => DAY0 + r.day);
    const oneName = part.every((r) => r.name === part[0]?.name);
    return {
      rows: part.length,
      columns: [
        oneName && part.length > 0
          ? { key: 'RES_NAME', kind: 'same', value: part[0]!.name }
          : { key: 'RES_NAME', kind: 'value', values: part.map((r) => r.name) },
        { key: 'start_date', kind: 'day', days },
        { key: 'end_date', kind: 'day', days },
        { key: 'x (mm)', kind: 'number', values: Float64Array.from(part, (r) => r.x), variable: 'x' },
        { key: 'qflag', kind: 'value', values: part.map((r) => r.flag) },
        ...(extra ? [{ key: 'status', kind: 'same', value: 'A' } as const] : []),
      ],
    };
  });
}

async function recordsOf(frames: readonly Frame[]): Promise<WireRecord[]> {
  return frameStream(columns, async function* () {
    yield* frames;
  }).records();
}

// a stream of the frames as they are, or of their records in batches (a stream with no frames())
async function streamOf(frames: readonly Frame[], asRecords: boolean): Promise<RecordStream> {
  if (!asRecords)
    return frameStream(columns, async function* () {
      yield* frames;
    });
  const batches = await Promise.all(frames.map((f) => recordsOf([f])));
  return recordStream(columns, async function* () {
    yield* batches;
  });
}

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const chunk of chunks) out += chunk;
  return out;
}

describe('changedFrames', () => {
  it('is the records of the newer answer that no record of the older equals, as records, JSON and CSV', async () => {
    const cuts = fc.array(fc.integer({ min: 1, max: 28 }), { maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(answer, cuts, answer, cuts, fc.boolean(), fc.boolean(), async (now, nowCuts, then, thenCuts, extra, asRecords) => {
        const nowFrames = framesOf(now, nowCuts, false);
        const thenFrames = framesOf(then, thenCuts, extra);
        const older = new Set((await recordsOf(thenFrames)).map((r) => JSON.stringify(r)));
        const expected = (await recordsOf(nowFrames)).filter((r) => !older.has(JSON.stringify(r)));
        const changed = async () =>
          frameStream(columns, async function* () {
            yield* changedFrames(await streamOf(nowFrames, asRecords), await streamOf(thenFrames, asRecords));
          });
        expect(await (await changed()).records()).toEqual(expected);
        expect(await text((await changed()).json())).toBe(JSON.stringify(expected));
        expect(await text((await changed()).csv())).toBe(recordsToCsv(expected, columns));
      }),
      { numRuns: 300 },
    );
  });

  it('reads the older answer alongside the newer: a frame of each ahead, not the whole answer', async () => {
    const names = ['ALPHA', 'BETA', 'GAMMA', 'DELTA'].sort();
    const one = (name: string, x: number): Frame => ({
      rows: 1,
      columns: [
        { key: 'RES_NAME', kind: 'same', value: name },
        { key: 'start_date', kind: 'day', days: Int32Array.of(DAY0) },
        { key: 'x (mm)', kind: 'number', values: Float64Array.of(x) },
      ],
    });
    const pulled = { newer: 0, older: 0 };
    const counted = (side: 'newer' | 'older', x: number) =>
      frameStream(['RES_NAME', 'start_date', 'x (mm)'], async function* () {
        for (const name of names) {
          pulled[side]++;
          yield one(name, x);
        }
      });
    const out = changedFrames(counted('newer', 1), counted('older', 2));
    const first = await out.next();
    expect(first.done).toBe(false);
    expect(pulled).toEqual({ newer: 2, older: 1 }); // the first name's frame of each, and the newer's next to know it ended
    let rest = 0;
    for await (const frame of out) rest += frame.rows;
    expect([rest, pulled]).toEqual([names.length - 1, { newer: names.length, older: names.length }]);
  });

  it('refuses rows out of order rather than compare them with the wrong rows', async () => {
    const frame = (name: string, day: number): Frame => ({
      rows: 1,
      columns: [
        { key: 'RES_NAME', kind: 'same', value: name },
        { key: 'start_date', kind: 'day', days: Int32Array.of(DAY0 + day) },
      ],
    });
    const stream = (...frames: Frame[]) =>
      frameStream(['RES_NAME', 'start_date'], async function* () {
        yield* frames;
      });
    const read = async (now: RecordStream, then: RecordStream) => {
      for await (const _ of changedFrames(now, then));
    };
    await expect(read(stream(frame('B', 0), frame('A', 0)), stream())).rejects.toThrow(/sorted by name, then day/);
    await expect(read(stream(frame('A', 3)), stream(frame('A', 2), frame('A', 0)))).rejects.toThrow(/sorted by name, then day/);
  });
});
