// Answers written by the CLI: the format chosen, an aligned table that reads back cell for cell, and CSV, JSON and
// Parquet files that independent readers (csv-parse, JSON.parse, hyparquet) read back as the records.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../cli/command.js';
import { chooseFormat, formatTable, writeRecords, writeText } from '../../cli/output.js';
import type { WireRecord } from '../../lib/types.js';
import { tempDir } from '../helpers.js';
import { testIo } from './harness.js';

const { io } = testIo(); // a pipe, not a terminal

// records of one shape: a name column, some numeric columns with gaps
const records = fc.tuple(fc.uniqueArray(fc.stringMatching(/^[A-Za-z_]{1,8}$/), { minLength: 1, maxLength: 4 }), fc.nat({ max: 6 })).chain(([columns, count]) =>
  fc
    .array(
      fc
        .tuple(
          fc.stringMatching(/^[A-Z][A-Z ]{0,14}[A-Z]$/),
          fc.array(
            fc.option(
              fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((v) => Math.round(v * 1e4) / 1e4 + 0),
              { nil: null },
            ),
            { minLength: columns.length, maxLength: columns.length },
          ),
        )
        .map(([name, values]) => ({ NAME: name, ...Object.fromEntries(columns.map((c, i) => [`${c} (mm)`, values[i]!])) }) as WireRecord),
      { minLength: count, maxLength: count },
    )
    .map((rows) => ({ columns: ['NAME', ...columns.map((c) => `${c} (mm)`)], rows })),
);

describe('chooseFormat', () => {
  it('takes a format asked for, CSV when writing to a file, and refuses others or parquet without a file', () => {
    for (const format of ['table', 'csv', 'json'] as const) expect(chooseFormat(io, format, undefined)).toBe(format);
    expect(chooseFormat(io, 'parquet', 'a.parquet')).toBe('parquet');
    expect(chooseFormat(io, undefined, 'out.csv')).toBe('csv');
    expect(() => chooseFormat(io, 'xlsx', undefined)).toThrow(new UsageError('--format must be one of table, csv, json, parquet; got "xlsx"'));
    expect(() => chooseFormat(io, 'parquet', undefined)).toThrow(new UsageError('--format parquet needs --out FILE'));
  });

  it('defaults to the aligned table on a terminal and to CSV in a pipe or a file', () => {
    const terminal = testIo({}, true).io;
    expect(chooseFormat(terminal, undefined, undefined)).toBe('table');
    expect(chooseFormat(io, undefined, undefined)).toBe('csv');
    expect(chooseFormat(terminal, undefined, 'answer.txt')).toBe('csv');
  });
});

describe('formatTable', () => {
  it('aligns columns under a rule: each cell reads back as its value, numbers right-aligned, gaps blank', () => {
    fc.assert(
      fc.property(records, ({ columns, rows }) => {
        const lines = formatTable(rows, columns).split('\n');
        expect(lines).toHaveLength(rows.length + 3); // header, rule, rows, final newline
        expect(lines.at(-1)).toBe('');
        // the rule's dash runs give each column's span
        const spans = [...lines[1]!.matchAll(/-+/g)].map((m) => [m.index!, m.index! + m[0].length] as const);
        expect(spans).toHaveLength(columns.length);
        const cells = (line: string) => spans.map(([from, to]) => line.padEnd(to).slice(from, to));
        expect(cells(lines[0]!).map((c) => c.trim())).toEqual(columns);
        rows.forEach((row, i) => {
          cells(lines[i + 2]!).forEach((cell, j) => {
            const value = row[columns[j]!];
            if (value === null) return void expect(cell.trim()).toBe('');
            if (typeof value === 'number') {
              expect(Number(cell.trim())).toBe(value);
              if (cell.trim() !== '' && cell.trim().length < cell.length) expect(cell.startsWith(' ')).toBe(true); // right-aligned
            } else expect(cell.trimEnd()).toBe(value);
          });
        });
      }),
    );
  });
});

describe('writeRecords and writeText to a file', () => {
  it('writes CSV, JSON and Parquet that read back as the records', async () => {
    const dir = await tempDir();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        records.filter((r) => r.rows.length > 0),
        async ({ columns, rows }) => {
          const base = join(dir, `answer-${n++}`);
          await writeRecords(io, rows, columns, 'csv', `${base}.csv`);
          await writeRecords(io, rows, columns, 'json', `${base}.json`);
          await writeRecords(io, rows, columns, 'parquet', `${base}.parquet`);
          await writeRecords(io, rows, columns, 'table', `${base}.txt`);
          const csv = parse(await readFile(`${base}.csv`, 'utf8'), {
            columns: true,
            cast: (v, c) => (c.header || c.column === 'NAME' ? v : v === '' ? null : Number(v)),
          }) as WireRecord[];
          expect(csv).toEqual(rows);
          expect(JSON.parse(await readFile(`${base}.json`, 'utf8'))).toEqual(rows);
          const bytes = await readFile(`${base}.parquet`);
          const parquet = await parquetReadObjects({
            file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
            compressors: { GZIP: (b: Uint8Array) => new Uint8Array(gunzipSync(b)) },
          });
          expect(parquet).toEqual(rows);
          expect(await readFile(`${base}.txt`, 'utf8')).toBe(formatTable(rows, columns));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('joins the chunks of a stream into the file', async () => {
    const out = join(await tempDir(), 'chunks.txt');
    async function* chunks() {
      for (let i = 0; i < 1000; i++) yield `${i}\n`;
    }
    await writeText(io, chunks(), out);
    expect(await readFile(out, 'utf8')).toBe(Array.from({ length: 1000 }, (_, i) => `${i}\n`).join(''));
  });
});
