// The normals band: the 10th-90th percentile (else min-max) of each calendar month or day of year, read from the
// records of /timeseries/normals/* by their key names, and mapped onto the days the chart shows.
import type { WireRecord } from './chart.js';

export interface Band {
  low: (day: string) => number | null;
  high: (day: string) => number | null;
}

const dayOfYear = (day: string) => {
  const t = Date.parse(`${day}T00:00:00Z`);
  return Math.floor((t - Date.UTC(new Date(t).getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
};

// "NetE (mm) p10", "NetE (mm)_p10", "NetE p10 (mm)", ...: the variable's keys naming a statistic
function statKey(keys: string[], variable: string, stats: RegExp): string | undefined {
  return keys.find((k) => (k.startsWith(`${variable} `) || k.startsWith(`${variable}_`)) && stats.test(k.slice(variable.length)));
}

/** Bands by variable from normals records of one name; variables whose keys are not recognised are left out. */
export function readNormals(records: readonly WireRecord[], variables: readonly string[]): Map<string, Band> {
  const bands = new Map<string, Band>();
  const first = records[0];
  if (!first) return bands;
  const keys = Object.keys(first);
  const byMonth = keys.find((k) => /^month$/i.test(k));
  const byDay = keys.find((k) => /^(day_of_year|doy|day)$/i.test(k));
  const periodKey = byMonth ?? byDay;
  if (!periodKey) return bands;
  const periodOf = (day: string) => (byMonth ? Number(day.slice(5, 7)) : dayOfYear(day));
  for (const variable of variables) {
    const low = statKey(keys, variable, /p10\b|_10\b|q10|10th/i) ?? statKey(keys, variable, /\bmin\b/i);
    const high = statKey(keys, variable, /p90\b|_90\b|q90|90th/i) ?? statKey(keys, variable, /\bmax\b/i);
    if (!low || !high) continue;
    const table = new Map<number, [number | null, number | null]>();
    for (const r of records) {
      const lo = r[low];
      const hi = r[high];
      table.set(Number(r[periodKey]), [typeof lo === 'number' ? lo : null, typeof hi === 'number' ? hi : null]);
    }
    bands.set(variable, { low: (d) => table.get(periodOf(d))?.[0] ?? null, high: (d) => table.get(periodOf(d))?.[1] ?? null });
  }
  return bands;
}
