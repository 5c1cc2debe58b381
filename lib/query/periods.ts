// Calendar periods of epoch days (months, years, water years), clipped to a range; and the time words of queries:
// `latest` and ISO 8601 durations counted back from the end date.
import { clip, formatDay, parseDay } from '../dates.js';
import { InvalidParameterError } from '../errors.js';

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

const MS_PER_DAY = 86_400_000;

function ymd(day: number): [number, number, number] {
  const d = new Date(day * MS_PER_DAY);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
}

function dayOf(year: number, month: number, date: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, date); // months and days past the end roll over, as wanted below
  return d.getTime() / MS_PER_DAY;
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

const DURATION = /^P(?:(\d{1,6})Y)?(?:(\d{1,6})M)?(?:(\d{1,6})W)?(?:(\d{1,6})D)?$/;

/**
 * The first day of a span of the given ISO 8601 duration that ends with `endDay` included: the duration is counted
 * back from the day after it, so P30D is 30 days, P1M ending 2021-02-28 is February and P1Y ending 2021-12-31 is 2021.
 * Only date parts (Y, M, W, D) are accepted; a month counted back to a day it lacks is clamped (2021-03-31 - P1M = 02-28).
 */
export function durationStart(text: string, endDay: number, parameter: string): number {
  const match = DURATION.exec(text);
  if (!match || text === 'P') {
    throw new InvalidParameterError(
      parameter,
      `${parameter} must be a date (YYYY-MM-DD), latest, or an ISO 8601 duration of years, months, weeks and days such as P30D or P1Y; got ${JSON.stringify(clip(text))}`,
      'not-a-date',
      text,
    );
  }
  const [years, months, weeks, days] = match.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number];
  const [y, m, d] = ymd(endDay + 1);
  const totalMonths = y * 12 + (m - 1) - years * 12 - months;
  const year = Math.floor(totalMonths / 12);
  const month = totalMonths - year * 12 + 1;
  const start = dayOf(year, month, Math.min(d, daysIn(year, month))) - weeks * 7 - days;
  if (!(ymd(start)[0] >= 1)) throw new InvalidParameterError(parameter, `${parameter} ${text} reaches back before year 1`, 'not-a-date', text);
  return start;
}

function daysIn(year: number, month: number): number {
  return dayOf(year, month + 1, 1) - dayOf(year, month, 1);
}

/** A date parameter that may be `latest`: the last day the store holds for what was asked (`latest()`). */
export function resolveDay(text: string, parameter: string, latest: () => number | undefined): number {
  if (text !== 'latest') return parseDay(text, parameter);
  const day = latest();
  if (day === undefined) throw new InvalidParameterError(parameter, `${parameter}=latest: the store holds no data for what was asked`, 'not-allowed', text);
  return day;
}

/**
 * An inclusive range whose end may be `latest` and whose start may be `latest` or an ISO 8601 duration counted back
 * from the end (`P30D`: the 30 days ending with end_date). Checks the order; names the parameters in errors.
 */
export function resolveRange(
  start: string,
  end: string,
  latest: () => number | undefined,
  names: readonly [string, string] = ['start_date', 'end_date'],
): { startDay: number; endDay: number } {
  const [startName, endName] = names;
  const startIsDuration = start.startsWith('P');
  const plainStart = startIsDuration ? undefined : resolveDay(start, startName, latest); // the start is checked first, as before
  const endDay = resolveDay(end, endName, latest);
  const startDay = plainStart ?? durationStart(start, endDay, startName);
  if (endDay < startDay) {
    throw new InvalidParameterError(endName, `${endName} ${formatDay(endDay)} is before ${startName} ${formatDay(startDay)}`, 'malformed', end);
  }
  return { startDay, endDay };
}
