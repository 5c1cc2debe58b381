// Reading the what-if answers for the page: the scenario's query parameters from the form, a period's total from
// interval records, and the numbers as the panel shows them (whole acre-feet, a signed difference).
import { keyOf, type WireRecord } from './chart.js';

/** The scenario parameters the panel offers, by wire name (docs/model.md gives their ranges; the server checks them). */
const scenarioInputs = ['ta_delta', 'stage_delta', 'wind_scale', 'area_scale', 'tds'] as const;

/** The scenario as query parameters: each input's trimmed text, left out when empty (the baseline's value). */
export function scenarioParams(value: (name: string) => string): Record<string, string | undefined> {
  return Object.fromEntries(scenarioInputs.map((name) => [name, value(name).trim() || undefined]));
}

/** The sum of a variable over interval records (the period's total), its unit, and how many records had a value. */
export function readTotal(records: readonly WireRecord[], variable: string): { total: number; unit: string; counted: number } {
  const key = keyOf(records[0], variable);
  let total = 0;
  let counted = 0;
  for (const r of records) {
    const value = key === undefined ? undefined : r[key];
    if (typeof value !== 'number') continue;
    total += value;
    counted++;
  }
  return { total, unit: key ? (/\(([^)]*)\)$/.exec(key)?.[1] ?? '') : '', counted };
}

/** A volume as the panel shows it: whole units with thousands separators. */
export function formatVolume(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** A difference with its sign (a true minus), in whole units. */
export function formatDifference(difference: number): string {
  const rounded = Math.round(difference);
  return `${rounded > 0 ? '+' : rounded < 0 ? '−' : '±'}${Math.abs(rounded).toLocaleString('en-US')}`;
}

/** A difference as a share of the baseline, signed, to a tenth of a percent ('' without a baseline). */
export function formatShare(difference: number, baseline: number): string {
  if (baseline === 0) return '';
  const share = (100 * difference) / baseline;
  return `${share > 0 ? '+' : share < 0 ? '−' : '±'}${Math.abs(share).toFixed(1)}%`;
}

/** The years a span of dates touches, newest first, each clipped to the span. */
export function yearsOf(span: { start: string; end: string }): { year: string; start: string; end: string }[] {
  const years: { year: string; start: string; end: string }[] = [];
  for (let y = Number(span.end.slice(0, 4)); y >= Number(span.start.slice(0, 4)); y--) {
    const start = `${y}-01-01` < span.start ? span.start : `${y}-01-01`;
    const end = `${y}-12-31` > span.end ? span.end : `${y}-12-31`;
    years.push({ year: String(y), start, end });
  }
  return years;
}
