// The summary of an answer, however it arrives in batches, against a direct computation over the whole array; and
// its HTML and text forms.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeMarkup, summaryHtml, summaryText } from '../../../lib/display/render.js';
import { SHOWN_AT_EACH_END, SummaryBuilder, summarizeRecords, variablesOf } from '../../../lib/display/summary.js';
import type { WireRecord } from '../../../lib/types.js';

const record = fc.record({
  RES_NAME: fc.constantFrom('LAKE A', 'LAKE B', 'LAKE <C> & "D"'),
  start_date: fc.date({ min: new Date('2000-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  'NetE (mm)': fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
});
const answers = fc.array(
  record.map((r): WireRecord => ({ RES_NAME: r.RES_NAME, start_date: r.start_date, end_date: r.start_date, 'NetE (mm)': r['NetE (mm)'] })),
  { maxLength: 40 },
);

describe('SummaryBuilder', () => {
  it('counts, names, dates and the rows at each end agree with the whole array, whatever the batches', () => {
    fc.assert(
      fc.property(answers, fc.array(fc.nat(40)), (records, cuts) => {
        const builder = new SummaryBuilder(['RES_NAME', 'start_date', 'end_date', 'NetE (mm)']);
        const points = [...new Set([0, ...cuts.filter((c) => c < records.length), records.length])].sort((a, b) => a - b);
        for (let i = 1; i < points.length; i++) builder.add(records.slice(points[i - 1], points[i]));
        const s = builder.done();
        expect(s.rows).toBe(records.length);
        expect(s.names).toEqual([...new Set(records.map((r) => r.RES_NAME))]);
        const dates = records.map((r) => r.start_date as string).sort();
        expect(s.first).toBe(dates[0]);
        expect(s.last).toBe(dates.at(-1));
        expect(s.head).toEqual(records.slice(0, SHOWN_AT_EACH_END));
        expect(s.tail).toEqual(records.slice(SHOWN_AT_EACH_END).slice(-SHOWN_AT_EACH_END));
        expect(s.variables).toEqual(['NetE (mm)']);
      }),
    );
  });
});

describe('variablesOf', () => {
  it('names each variable with its unit once, normals and comparison keys included', () => {
    expect(variablesOf(['RES_NAME', 'month', 'E_volume (acre-ft) n', 'E_volume (acre-ft) mean', 'NetE (mm)', 'NetE (mm) pct_of_normal', 'qflag'])).toEqual([
      'E_volume (acre-ft)',
      'NetE (mm)',
    ]);
  });
});

describe('escapeMarkup', () => {
  it('leaves no markup character and decodes back to the text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const escaped = escapeMarkup(text);
        expect(escaped).not.toMatch(/[<>"']|&(?!#\d+;)/);
        expect(escaped.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))).toBe(text);
      }),
    );
  });
});

describe('summaryHtml and summaryText', () => {
  it('show the first and last rows and count the ones between', () => {
    fc.assert(
      fc.property(answers, (records) => {
        const s = summarizeRecords(records, ['RES_NAME', 'start_date', 'end_date', 'NetE (mm)']);
        const html = summaryHtml('t', s);
        const bodyRows = (html.split('<tbody>')[1]!.match(/<tr>/g) ?? []).length;
        const shown = Math.min(records.length, 2 * SHOWN_AT_EACH_END);
        const hidden = records.length - shown;
        expect(bodyRows).toBe(shown + (hidden > 0 ? 1 : 0));
        expect(html.includes(`${hidden} more rows`)).toBe(hidden > 0);
        expect(html).toContain(`${records.length} ${records.length === 1 ? 'row' : 'rows'}`);
        const text = summaryText('t', s).split('\n');
        expect(text).toHaveLength(2 + shown + (hidden > 0 ? 1 : 0));
      }),
    );
  });
});
