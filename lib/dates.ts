// Calendar dates as YYYY-MM-DD strings on the outside and epoch days (UTC) inside.
import { InvalidParameterError } from './errors.js';

const MS_PER_DAY = 86_400_000;
const SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** Parses a YYYY-MM-DD date into an epoch day; throws InvalidParameterError naming the parameter. */
export function parseDay(value: string, parameter: string): number {
  if (!SHAPE.test(value)) {
    throw new InvalidParameterError(parameter, `${parameter} must be a date in the form YYYY-MM-DD, got ${JSON.stringify(clip(value))}`, 'not-a-date', value);
  }
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  // the proleptic Gregorian calendar has no year 0000 and no 2021-02-30 (a test checks this rule against date-fns)
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new InvalidParameterError(parameter, `${parameter} is not a calendar date: ${value} does not exist`, 'not-a-date', value);
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // unlike Date.UTC, keeps years 1-99 as they are
  return date.getTime() / MS_PER_DAY;
}

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

const formatted = new Map<number, string>();

/** Formats an epoch day as YYYY-MM-DD (memoised: the same few thousand days recur in every answer). */
export function formatDay(day: number): string {
  let text = formatted.get(day);
  if (text === undefined) {
    text = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    if (formatted.size < 100_000) formatted.set(day, text);
  }
  return text;
}

/** The UTC calendar year of an epoch day. */
export function yearOfDay(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCFullYear();
}

/** The epoch day of January 1st of a year. */
export function firstDayOfYear(year: number): number {
  return Date.UTC(year, 0, 1) / MS_PER_DAY;
}

/** Parses an inclusive range and checks its order; names the parameters in errors. */
export function parseRange(start: string, end: string): { startDay: number; endDay: number } {
  const startDay = parseDay(start, 'start_date');
  const endDay = parseDay(end, 'end_date');
  if (endDay < startDay) {
    throw new InvalidParameterError('end_date', `end_date ${end} is before start_date ${start}`, 'malformed', end);
  }
  return { startDay, endDay };
}

/** Shortens a hostile value before it is echoed in an error message. */
export function clip(value: string, max = 80): string {
  return value.length > max ? `${value.slice(0, max)}...` : value;
}
