// Epoch days (days since 1970-01-01 UTC) to calendar years, without Date objects.

/** Epoch day of the model's spin-up origin, 1979-01-01: every series starts its state there. */
export const originDay = 3287;

/** Epoch day of a calendar date (Hinnant's days_from_civil). */
export function dayFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Calendar year of an epoch day. */
function yearOfDay(epochDay: number): number {
  let year = 1970 + Math.floor(epochDay / 365.2425);
  while (dayFromCivil(year, 1, 1) > epochDay) year--;
  while (dayFromCivil(year + 1, 1, 1) <= epochDay) year++;
  return year;
}

// days of a common year before each month (1-12); a leap year adds one from March
const daysBefore = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

/** Walks epoch days forward one at a time, keeping year, month and day of year (1-based) without division. */
export class Calendar {
  year = 0;
  month = 1;
  doy = 0;
  yearLength = 365;
  private nextYearStart = 0;

  constructor(epochDay: number) {
    this.seek(epochDay);
  }

  /** Moves to any epoch day. */
  seek(epochDay: number): void {
    this.year = yearOfDay(epochDay);
    const start = dayFromCivil(this.year, 1, 1);
    this.nextYearStart = dayFromCivil(this.year + 1, 1, 1);
    this.yearLength = this.nextYearStart - start;
    this.doy = epochDay - start + 1;
    this.setMonth();
  }

  /** Moves to the next day. */
  advance(): void {
    this.doy++;
    if (this.doy > this.yearLength) {
      this.year++;
      const start = this.nextYearStart;
      this.nextYearStart = dayFromCivil(this.year + 1, 1, 1);
      this.yearLength = this.nextYearStart - start;
      this.doy = 1;
    }
    this.setMonth();
  }

  private setMonth(): void {
    const leap = this.yearLength - 365;
    let m = 1;
    while (m < 12 && this.doy > daysBefore[m + 1]! + (m + 1 > 2 ? leap : 0)) m++;
    this.month = m;
  }
}
