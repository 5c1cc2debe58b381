// Reading the forecast answers for the page: the fan of one issue and skill by lead. Their records key each value
// "<variable> (<unit>) <statistic>" (e.g. "E_volume (m3) p90"); nothing here depends on the order of the keys.

export type WireRecord = Record<string, string | number | null>;

/** The statistics a fan draws: the 90% and 50% ranges and the median. */
export const fanStatistics = ['p05', 'p25', 'p50', 'p75', 'p95'] as const;
export type FanStatistic = (typeof fanStatistics)[number];

/** The key of a variable's statistic in a record, and its unit; undefined when the record has none. */
export function statisticKey(record: WireRecord | undefined, variable: string, statistic: string): { key: string; unit: string } | undefined {
  if (!record) return undefined;
  for (const key of Object.keys(record)) {
    const m = /^(.+) \(([^)]*)\) (\S+)$/.exec(key);
    if (m && m[1] === variable && m[3] === statistic) return { key, unit: m[2]! };
  }
  return undefined;
}

/** One issue's forecast of one variable for one reservoir, by valid date. */
export interface Fan {
  issued: string;
  unit: string;
  days: string[]; // valid dates, ascending
  values: Record<FanStatistic, (number | null)[]>;
}

/** The fan of the latest issue among `records` (one reservoir's /forecast/daily/reservoirs answer); undefined when empty. */
export function readFan(records: readonly WireRecord[], variable: string): Fan | undefined {
  const issued = records.reduce((latest, r) => (String(r.issued) > latest ? String(r.issued) : latest), '');
  const own = records.filter((r) => String(r.issued) === issued).sort((a, b) => String(a.valid_date).localeCompare(String(b.valid_date)));
  const median = statisticKey(own[0], variable, 'p50');
  if (!median) return undefined;
  const values = {} as Record<FanStatistic, (number | null)[]>;
  for (const statistic of fanStatistics) {
    const key = statisticKey(own[0], variable, statistic)?.key;
    values[statistic] = own.map((r) => (key !== undefined && typeof r[key] === 'number' ? (r[key] as number) : null));
  }
  return { issued, unit: median.unit, days: own.map((r) => String(r.valid_date)), values };
}

/** Skill, and the share of estimates inside p10-p90, by lead, from one reservoir's verification answer for one variable. */
export function readSkill(records: readonly WireRecord[], variable: string): { leads: number[]; skill: (number | null)[]; coverage: (number | null)[] } {
  const own = records.filter((r) => r.variable === variable).sort((a, b) => Number(a.lead_days) - Number(b.lead_days));
  const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    leads: own.map((r) => Number(r.lead_days)),
    skill: own.map((r) => number(r.skill)),
    coverage: own.map((r) => number(r.coverage_80)),
  };
}

/** The total of a forecast over its leads: the median and the members' 10th-90th percentile range, in its unit. */
export interface Total {
  start: string; // the first and last valid date the total is over
  end: string;
  unit: string;
  p10: number | null;
  p50: number | null;
  p90: number | null;
}

/** The total of one variable from one reservoir's /forecast/total/reservoirs answer; undefined when it has none. */
export function readTotal(records: readonly WireRecord[], variable: string): Total | undefined {
  const record = records[0];
  const median = statisticKey(record, variable, 'p50');
  if (!record || !median) return undefined;
  const at = (statistic: string) => {
    const v = record[statisticKey(record, variable, statistic)?.key ?? ''];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };
  return { start: String(record.start_date), end: String(record.end_date), unit: median.unit, p10: at('p10'), p50: at('p50'), p90: at('p90') };
}

// three significant digits: the ensemble's range is wider than the fourth
const figure = (x: number | null) => (x === null ? 'none' : x.toLocaleString('en-US', { maximumSignificantDigits: 3 }));

/** The line a water manager plans with: "28-day total, 2022-01-01 to 2022-01-28: median 16,500 acre-ft (10th–90th percentile 15,000–18,600)". */
export function describeTotal(total: Total): string {
  const days = Math.round((Date.parse(total.end) - Date.parse(total.start)) / 86_400_000) + 1;
  return (
    `${days}-day total, ${total.start} to ${total.end}: median ${figure(total.p50)} ${total.unit} ` +
    `(10th–90th percentile of the members ${figure(total.p10)}–${figure(total.p90)})`
  );
}
