// Input text as CSV rows and JSON objects, however it is chunked: against csv-parse's synchronous parser and JSON.parse
// of the whole text, with the line each record starts on counted in the text as written; UTF-8 split anywhere.

import { parse as parseSync } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../../lib/format/csv.js';
import { csvRows, decodeChunks, firstCharacter, jsonObjects, MAX_RECORD_CHARS, SyntaxProblem, textSource } from '../../../lib/ingest/text.js';

async function objectsOf(text: string): Promise<{ value: unknown; line: number }[]> {
  const out: { value: unknown; line: number }[] = [];
  for await (const { value, line } of jsonObjects(from([text]))) out.push({ value, line });
  return out;
}

describe('decodeChunks', () => {
  it('decodes UTF-8 split anywhere, even inside a character, as the whole bytes decode', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1 }), async (text, cuts) => {
        const bytes = new TextEncoder().encode(`\uFEFF${text}`);
        const pieces: Uint8Array[] = [];
        for (let at = 0, i = 0; at < bytes.length; i++) pieces.push(bytes.subarray(at, (at += cuts[i % cuts.length]!)));
        let out = '';
        for await (const piece of decodeChunks(pieces)) out += piece;
        return out === new TextDecoder().decode(bytes) && out === text; // the byte order mark dropped
      }),
    );
  });
});

describe('firstCharacter', () => {
  it('gives the first character that is not white space or a byte order mark', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: fc.constantFrom(' ', '\n', '\t', '\r', '\uFEFF') }), fc.string({ maxLength: 5 }), async (blank, rest) => {
        const expected = `${blank}${rest}`.replace(/^[\s\uFEFF]+/, '')[0] ?? '';
        return (await firstCharacter(textSource('x', `${blank}${rest}`))) === expected;
      }),
    );
  });
});

describe('jsonObjects', () => {
  it('refuses an object too long to be a record instead of holding it', async () => {
    const huge = `[{"RES_NAME": "${'A'.repeat(2 * MAX_RECORD_CHARS)}"}]`;
    const chunks = async function* () {
      for (let i = 0; i < huge.length; i += 65536) yield huge.slice(i, i + 65536);
    };
    await expect(async () => {
      for await (const _ of jsonObjects(chunks())) void _;
    }).rejects.toThrow(/the object starting here is over 1048576 characters/);
  });

  it('yields the objects of an array however the text is chunked, with their lines', async () => {
    const json = fc.jsonValue({ maxDepth: 2 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.dictionary(fc.string(), json), { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1 }),
        async (objects, cuts) => {
          const text = `[\n${objects.map((o) => JSON.stringify(o)).join(',\n')}\n]`;
          const chunks = chunk(text, cuts);
          const out: { value: unknown; line: number }[] = [];
          for await (const item of jsonObjects(from(chunks))) out.push(item);
          expect(out.map((o) => o.value)).toEqual(objects.map((o) => JSON.parse(JSON.stringify(o))));
          expect(out.map((o) => o.line)).toEqual(
            objects.map((_, i) => 2 + i + objects.slice(0, i).reduce((n, o) => n + (JSON.stringify(o).match(/\n/g)?.length ?? 0), 0)),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('names the first key an object repeats, and none when each appears once', async () => {
    const entry = fc.tuple(fc.constantFrom('a', 'b', '__proto__', 'NetE (mm)', 'é\\"'), fc.jsonValue({ maxDepth: 2 }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(entry, { maxLength: 5 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1 }),
        async (objects, cuts) => {
          const text = `[${objects.map((o) => `{${o.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}}`).join(',\n')}]`;
          const expected = objects.map((o) => o.map(([k]) => k).find((k, i, keys) => keys.indexOf(k) < i));
          const out: (string | undefined)[] = [];
          for await (const { duplicate } of jsonObjects(from(chunk(text, cuts)))) out.push(duplicate);
          expect(out).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a sequence of objects (NDJSON) as an array, and refuses what is not an array of objects at the line it is on', async () => {
    const ndjson = '{"a": 1}\n{"b": [2, {"c": 3}]}\n\n{"d": "}"}\n';
    expect(await objectsOf(ndjson)).toEqual([
      { value: { a: 1 }, line: 1 },
      { value: { b: [2, { c: 3 }] }, line: 2 },
      { value: { d: '}' }, line: 4 },
    ]);
    expect(await objectsOf('[]')).toEqual([]);
    expect(await objectsOf('')).toEqual([]);
    // an element that is not an object, an array never closed, an object never closed, bad JSON inside, an empty element, text after the array
    for (const [text, line] of [
      ['[\n{"a": 1},\n2]', 3],
      ['[{"a": 1}', 1],
      ['{"a": 1}\n{"b": 2', 2],
      ['[{"a": tru}]', 1],
      ['[{"a": 1},,{"b": 2}]', 1],
      ['[{"a": 1}] [', 1],
      ['[]\n{"a": 1}', 2],
    ] as const) {
      const problem = await objectsOf(text).catch((e: unknown) => e);
      expect(problem, text).toBeInstanceOf(SyntaxProblem);
      expect((problem as SyntaxProblem).line, text).toBe(line);
    }
  });
});

describe('csvRows', () => {
  it('yields the rows of CSV text however it is chunked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.string({ minLength: 1 }), { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 10 }),
        fc.array(fc.integer({ min: 1, max: 15 }), { minLength: 1 }),
        async (rows, cuts) => {
          const text = recordsToCsv(
            rows.map(([a, b]) => ({ a: a!, b: b! })),
            ['a', 'b'],
          );
          const out: string[][] = [];
          for await (const { fields } of csvRows(from(chunk(text, cuts)))) out.push(fields);
          expect(out).toEqual([['a', 'b'], ...rows]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives the line each row starts on, across quoted line breaks, empty lines and any line ending', async () => {
    const piece = fc.constantFrom('a', ',', '""', '\r\n', '\n', '\r', ' ');
    const field = fc.array(piece, { maxLength: 6 }).map((p) => `"${p.join('')}"`);
    const row = fc.tuple(fc.array(field, { minLength: 1, maxLength: 3 }), fc.nat({ max: 2 }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(row, { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 15 }), { minLength: 1 }),
        async (end, rows, cuts) => {
          let text = `a,b${end}`;
          const starts: number[] = [1];
          for (const [fields, empties] of rows) {
            text += end.repeat(empties);
            starts.push(1 + (text.match(/\r\n|\r|\n/g)?.length ?? 0)); // counted in the text as written, before the row
            text += fields.join(',') + end;
          }
          const lines: number[] = [];
          for await (const { line } of csvRows(from(chunk(text, cuts)))) lines.push(line);
          expect(lines).toEqual(starts);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the rows csv-parse gives for any text, and the same error where it refuses one', async () => {
    const piece = fc.constantFrom('a', 'é', ',', '"', '""', '\n', '\r\n', ' ', 'x"y');
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1 }), async (pieces, cuts) => {
        const text = pieces.join('');
        const expected = (() => {
          try {
            return {
              rows: parseSync(text, { bom: true, relax_column_count: true, skip_empty_lines: true, record_delimiter: ['\r\n', '\n', '\r'] }) as string[][],
            };
          } catch {
            return { refused: true };
          }
        })();
        const rows: string[][] = [];
        try {
          for await (const { fields } of csvRows(from(chunk(text, cuts)))) rows.push(fields);
          expect({ rows }).toEqual(expected);
        } catch (error) {
          if (!(error instanceof SyntaxProblem)) throw error;
          expect(expected).toEqual({ refused: true });
        }
      }),
      { numRuns: 300 },
    );
  });
});

function chunk(text: string, cuts: number[]): string[] {
  const out: string[] = [];
  for (let at = 0, i = 0; at < text.length; i++) {
    const size = cuts[i % cuts.length]!;
    out.push(text.slice(at, at + size));
    at += size;
  }
  return out;
}

async function* from(chunks: string[]): AsyncGenerator<string> {
  for (const c of chunks) yield c;
}
