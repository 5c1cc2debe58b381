// An answer's records as the series of a chart: daily lines, bars of monthly, annual or water-year periods, or the
// band of a normals answer; one series per name and variable, grouped by unit (one panel each).
import { variablesOf } from '../display/summary.js';
import type { WireRecord } from '../types.js';

/** What the records are: daily values, totals over periods (n_days), or normals (month or day of the year). */
export type ChartKind = 'daily' | 'periods' | 'normals';

/** One point of a series: its position on the x axis, its value, and the normal's band there when there is one. */
export interface ChartPoint {
  x: number; // daily: days since 1970-01-01; periods and normals: the category's index
  value: number | null;
  band?: { low: number; high: number }; // p10..p90 of the normal
}

/** One line or row of bars: a name's variable. */
export interface ChartSeries {
  name: string;
  variable: string; // the answer's key, "NetE (mm)"
  unit: string; // "mm"
  points: ChartPoint[];
}

/** Everything a chart draws. */
export interface ChartModel {
  kind: ChartKind;
  categories: string[]; // the x labels of periods and normals (empty for daily)
  series: ChartSeries[];
}

const unitOf = (variable: string) => /\(([^)]*)\)$/.exec(variable)?.[1] ?? '';

/** The kind of an answer from its columns. */
function chartKind(columns: readonly string[]): ChartKind {
  if (columns.includes('month') || columns.includes('day')) return 'normals';
  return columns.includes('n_days') ? 'periods' : 'daily';
}

/** Days since 1970-01-01 of a YYYY-MM-DD date. */
function dayNumber(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;
}

/** A period's label: 2020-01 for a month, 2020 for a calendar year, WY2020 for a water year (named by the year it ends in). */
export function periodLabel(start: string, end: string): string {
  if (dayNumber(end) - dayNumber(start) < 40) return start.slice(0, 7);
  return end.slice(5, 7) === '09' ? `WY${end.slice(0, 4)}` : start.slice(0, 4);
}

function nameOf(r: WireRecord): string {
  return String(r.RES_NAME ?? r.STA_NAME ?? '');
}

function numberOr(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * The chart of an answer. `normals`, given with a monthly answer, adds each month's normal band (p10 to p90 of the
 * same name and variable); `variables` keeps only those keys.
 */
export function chartModel(
  records: readonly WireRecord[],
  columns: readonly string[],
  options: { normals?: readonly WireRecord[]; variables?: readonly string[] } = {},
): ChartModel {
  const kind = chartKind(columns);
  let variables = variablesOf(columns);
  if (options.variables) variables = variables.filter((v) => options.variables!.some((w) => v === w || v.startsWith(`${w} (`)));
  const rowsOf = new Map<string, WireRecord[]>(); // one pass: filtering the records once per name is names × records
  for (const r of records) {
    const name = nameOf(r);
    const rows = rowsOf.get(name);
    if (rows) rows.push(r);
    else rowsOf.set(name, [r]);
  }
  const categories: string[] = [];
  const categoryIndex = new Map<string, number>();
  const xOf = (r: WireRecord): number => {
    if (kind === 'daily') return dayNumber(String(r.start_date));
    const label = kind === 'normals' ? String(r.month ?? r.day) : periodLabel(String(r.start_date), String(r.end_date));
    let at = categoryIndex.get(label);
    if (at === undefined) {
      at = categories.length;
      categories.push(label);
      categoryIndex.set(label, at);
    }
    return at;
  };
  if (kind !== 'daily') {
    // categories in order on the x axis whatever the names' order
    const sorted = [...records].sort(
      (a, b) =>
        String(a.start_date).localeCompare(String(b.start_date)) ||
        Number(a.month ?? 0) - Number(b.month ?? 0) ||
        String(a.day ?? '').localeCompare(String(b.day ?? '')),
    );
    if (kind === 'normals') sorted.sort((a, b) => (typeof a.month === 'number' ? a.month - Number(b.month) : String(a.day).localeCompare(String(b.day))));
    for (const r of sorted) xOf(r);
  }
  const normalOf = new Map<string, WireRecord>(); // name and month -> normals record
  for (const r of options.normals ?? []) normalOf.set(`${nameOf(r)}\u0000${r.month}`, r);
  const series: ChartSeries[] = [];
  for (const [name, rows] of rowsOf) {
    for (const variable of variables) {
      const points = rows.map((r): ChartPoint => {
        const point: ChartPoint = { x: xOf(r), value: numberOr(kind === 'normals' ? r[`${variable} mean`] : r[variable]) };
        const normal = kind === 'normals' ? r : normalOf.get(`${name}\u0000${Number(String(r.start_date).slice(5, 7))}`);
        const low = numberOr(normal?.[`${variable} p10`]);
        const high = numberOr(normal?.[`${variable} p90`]);
        if (low !== null && high !== null && (kind === 'normals' || periodLabel(String(r.start_date), String(r.end_date)).length === 7))
          point.band = { low, high };
        return point;
      });
      series.push({ name, variable, unit: unitOf(variable), points });
    }
  }
  return { kind, categories, series };
}
