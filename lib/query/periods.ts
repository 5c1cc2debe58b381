// Calendar periods of epoch days (months, years, water years), clipped to a range.
import { dayOf, formatDay, ymd } from '../dates.js';

/** How days are grouped: calendar months, calendar years, or water years (October 1 to September 30). */
export type Interval = 'monthly' | 'annual' | 'water-year';
export const intervals: readonly Interval[] = ['monthly', 'annual', 'water-year'];

/** A period clipped to a requested range: its first and last day inside the range (epoch days). */
export interface Period {
  start: number;
  end: number;
  whole: boolean; // the whole calendar period lies inside the range
  month: number; // 1-12 of the period's first day (for a month: its calendar month)
}

/** The unclipped period holding a day: [first, last] epoch days. Water years are named by the year they end in (USGS). */
function periodAround(day: number, interval: Interval): [number, number] {
  const [year, month] = ymd(day);
  if (interval === 'monthly') return [dayOf(year, month, 1), dayOf(year, month + 1, 1) - 1];
  if (interval === 'annual') return [dayOf(year, 1, 1), dayOf(year + 1, 1, 1) - 1];
  const ends = month >= 10 ? year + 1 : year;
  return [dayOf(ends - 1, 10, 1), dayOf(ends, 10, 1) - 1];
}

/** The periods covering [startDay, endDay], in order, each clipped to the range. */
export function periodsOf(startDay: number, endDay: number, interval: Interval): Period[] {
  const out: Period[] = [];
  for (let day = startDay; day <= endDay; ) {
    const [first, last] = periodAround(day, interval);
    out.push({ start: day, end: Math.min(last, endDay), whole: first >= startDay && last <= endDay, month: ymd(day)[1] });
    day = last + 1;
  }
  return out;
}

/** The calendar month (1-12) and day of an epoch day, as `MM-DD`. */
export function monthDay(day: number): string {
  return formatDay(day).slice(5);
}
