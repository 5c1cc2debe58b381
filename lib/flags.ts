// Per-day flags: the data quality flag (qflag) of a reservoir-day and the status of a reservoir- or station-day.
// Public FAQ (evap-docs docs/faq.md): O raw data value, M not available and filled with the previous date's value,
// S static (full-pool values), R removed outlier; Early, Provisional and Final data flags with each daily estimate.

export const qflagValues = ['O', 'M', 'S', 'R'] as const;
export type QFlag = (typeof qflagValues)[number];

// Computed: evap's own DLEM made the day's lem and nete-volume-calcs from the store's forcing (evap model --store)
export const statusValues = ['Early', 'Provisional', 'Final', 'Computed'] as const;
export type Status = (typeof statusValues)[number];

/** The per-day columns a data file may hold, with the values each may take. */
export const flagColumns = { qflag: qflagValues, status: statusValues } as const;
export type FlagColumn = keyof typeof flagColumns;

/** Per-day attributes of reservoir-days and station-days (stations keep their metadata qflag). */
export const reservoirDayAttributes: readonly FlagColumn[] = ['qflag', 'status'];
export const stationDayAttributes: readonly FlagColumn[] = ['status'];

/** Days before the data end that are re-run daily: the last EARLY_DAYS are Early, the PROVISIONAL_DAYS before them Provisional. */
export const EARLY_DAYS = 3;
export const PROVISIONAL_DAYS = 60;

/** The status of `day` in data that ends on `endDay` (epoch days). */
export function statusOfDay(day: number, endDay: number): Status {
  const age = endDay - day;
  if (age < EARLY_DAYS) return 'Early';
  if (age < EARLY_DAYS + PROVISIONAL_DAYS) return 'Provisional';
  return 'Final';
}

/** Flag texts as numeric codes (index in the column's list; NaN where missing), so they travel with the values. */
export function encodeFlags(column: FlagColumn, values: ArrayLike<string | null>): Float64Array {
  const list: readonly string[] = flagColumns[column];
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const at = values[i] === null ? -1 : list.indexOf(values[i]!);
    out[i] = at < 0 ? NaN : at;
  }
  return out;
}

/** The text of a flag code (null for NaN). */
export function decodeFlag(column: FlagColumn, code: number): string | null {
  return code === code ? (flagColumns[column][code] ?? null) : null;
}

/** Whether a flag text is one the column allows. */
export function isFlag(column: FlagColumn, value: unknown): boolean {
  return (flagColumns[column] as readonly unknown[]).includes(value);
}

/** The attributes also_return may name: the metadata's, then the per-day flags it lacks. */
export function withDayAttributes(metadata: readonly string[], day: readonly FlagColumn[]): string[] {
  return [...metadata, ...day.filter((a) => !metadata.includes(a))];
}

/** Which of the asked attributes are per-day flags, read from the data files. */
export function dayAttributesOf(attributes: readonly string[], day: readonly FlagColumn[]): FlagColumn[] {
  return day.filter((a) => attributes.includes(a));
}
