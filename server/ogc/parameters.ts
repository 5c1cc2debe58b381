// The OGC query parameters read and checked: bbox, datetime, limit, offset, properties and the property filters.
import { attributeInfo, type UnitSystem } from '../../lib/catalogue.js';
import type { WireRecord } from '../../lib/types.js';
import { HttpError } from '../errors.js';
import { attributesOf, type Collection } from './collections.js';
import { KEY_PARAMETER } from './context.js';

/** The most features one page holds: a larger `limit` gets this many (OGC API - Features 7.15.3), as the OpenAPI document says. */
export const MAX_LIMIT = 10_000;
export const DEFAULT_LIMIT = 100;

const bad = (message: string) => new HttpError(400, message);

/** The parameters the items path reads itself; any other name is a property filter. */
const known = new Set(['f', 'bbox', 'bbox-crs', 'datetime', 'limit', 'offset', 'properties', 'units', 'as_of', 'crs', KEY_PARAMETER]);

/** bbox=minLon,minLat,maxLon,maxLat (or six numbers with heights, ignored), WGS 84. */
export function readBbox(text: string | null): [number, number, number, number] | undefined {
  if (text === null) return undefined;
  const parts = text.split(',').map((p) => (p.trim() === '' ? Number.NaN : Number(p)));
  if ((parts.length !== 4 && parts.length !== 6) || parts.some((n) => !Number.isFinite(n)))
    throw bad('bbox must be four numbers: minLon,minLat,maxLon,maxLat (WGS 84)');
  const [x1, y1, x2, y2] = parts.length === 4 ? parts : [parts[0]!, parts[1]!, parts[3]!, parts[4]!];
  if (y1! > y2!) throw bad('bbox: the lower latitude comes first');
  return [x1!, y1!, x2!, y2!];
}

/** Whether a point is in the box (a box whose west edge is east of its east edge crosses the antimeridian). */
export function inBbox(box: readonly [number, number, number, number], lon: number, lat: number): boolean {
  const [x1, y1, x2, y2] = box;
  const inLon = x1 <= x2 ? lon >= x1 && lon <= x2 : lon >= x1 || lon <= x2;
  return inLon && lat >= y1 && lat <= y2;
}

const dayPattern = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

// a date or date-time -> its UTC day; 'start' or 'end' of a day are the same day (the store holds days)
function dayOf(given: string): string {
  const text = given.endsWith('T') ? given.slice(0, -1) : given; // GDAL 3.6 writes a date alone as `2020-01-01T`
  const match = dayPattern.exec(text);
  const time = match ? new Date(match[2] ? text : `${match[1]}T00:00:00Z`) : undefined;
  if (!match || time === undefined || Number.isNaN(time.getTime()))
    throw bad(`datetime: ${JSON.stringify(text.slice(0, 60))} is not an RFC 3339 date or date-time`);
  // the written date is checked on its own: Date rolls 2020-02-30T10:00Z over to March 1st
  const written = match[1]!;
  if (new Date(`${written}T00:00:00Z`).toISOString().slice(0, 10) !== written) throw bad(`datetime: ${written} is not a calendar date`);
  return match[2] ? time.toISOString().slice(0, 10) : written;
}

/** datetime: an instant, `a/b`, `../b`, `a/..` (or an empty end) -> the days asked, each end undefined when open. */
export function readDatetime(text: string | null): { start?: string; end?: string } {
  if (text === null) return {};
  const parts = text.split('/');
  if (parts.length === 1) {
    const day = dayOf(text);
    return { start: day, end: day };
  }
  if (parts.length !== 2) throw bad('datetime is an instant or an interval start/end, each end a date, a date-time, or .. when open');
  const [a, b] = parts.map((p) => (p === '' || p === '..' ? undefined : dayOf(p)));
  if (a !== undefined && b !== undefined && a > b) throw bad(`datetime: the interval starts after it ends (${a} > ${b})`);
  return { start: a, end: b };
}

/** A whole number at least `min`, or the default when absent; above `max` it is `max`. */
export function readCount(params: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const text = params.get(name);
  if (text === null) return fallback;
  if (!/^\d{1,15}$/.test(text) || Number(text) < min) throw bad(`${name} must be a whole number, at least ${min}`);
  return Math.min(Number(text), max);
}

/** units=metric (default) or english. */
export function readUnits(params: URLSearchParams): UnitSystem {
  const text = params.get('units') ?? 'metric';
  if (text !== 'metric' && text !== 'english') throw bad('units must be metric or english');
  return text;
}

/** The property filters: every other parameter naming a queryable (`RES_NAME=LAKE MEAD`); an unknown name is refused. */
export function readFilters(params: URLSearchParams, collection: Collection): [string, string][] {
  const attributes = new Set(attributesOf(collection));
  const filters: [string, string][] = [];
  for (const [name, value] of params) {
    if (known.has(name)) continue;
    if (collection.observations && name === 'date') throw bad('filter days with datetime=');
    if (!attributes.has(name)) throw bad(`unknown parameter ${JSON.stringify(name.slice(0, 60))}: the queryables are ${[...attributes].join(', ')}`);
    filters.push([name, value]);
  }
  return filters;
}

/** Whether a place's row passes every filter: numbers compared as numbers, text as written. */
export function passes(row: WireRecord, filters: readonly [string, string][]): boolean {
  return filters.every(([name, value]) => {
    const held = row[name];
    const numeric = (attributeInfo as Record<string, { unit?: string }>)[name]?.unit !== undefined;
    return numeric ? held !== null && held !== undefined && Number(value) === held : String(held) === value;
  });
}
