// /collections/{id}/items and /items/{featureId}: GeoJSON features, places or (name, day) observations. A reservoir
// dataset's page is read as columns, the rows before it counted, not read (lib/query/observations.ts); the stations'
// daily values are paged by reading their answer batch by batch (lib/query/page.ts). Properties carry plain variable
// names (`NetE`), their units in the collection's schema.
import type { DatasetName, UnitSystem } from '../../lib/catalogue.js';
import { formatDay, parseDay } from '../../lib/dates.js';
import type { RecordStream } from '../../lib/format/stream.js';
import type { StoreReader } from '../../lib/open/store.js';
import type { ObservationFrame } from '../../lib/query/observations.js';
import { pageOf } from '../../lib/query/page.js';
import { withKeys } from '../../lib/query/plan.js';
import type { WireRecord } from '../../lib/types.js';
import { convert, roundValue } from '../../lib/units.js';
import { HttpError } from '../errors.js';
import { attributesOf, type Collection, dayRange, placeRows, wireKey } from './collections.js';
import { link, type OgcContext, selfLinks } from './context.js';
import { DEFAULT_LIMIT, inBbox, MAX_LIMIT, passes, readBbox, readCount, readDatetime, readFilters, readUnits } from './parameters.js';

export const GEOJSON = 'application/geo+json';

interface Feature {
  type: 'Feature';
  id: string;
  geometry: { type: 'Point'; coordinates: [number, number] } | null;
  properties: WireRecord;
}

/** A place row's point, or null when it has none. */
export function pointOf(row: WireRecord | undefined): Feature['geometry'] {
  const lon = row?.LON;
  const lat = row?.LAT;
  return typeof lon === 'number' && typeof lat === 'number' && Number.isFinite(lon) && Number.isFinite(lat) ? { type: 'Point', coordinates: [lon, lat] } : null;
}

/** The id of an observation: its name and day (`LAKE MEAD@2020-01-01`). */
function observationId(name: string, day: string): string {
  return `${name}@${day}`;
}

/** The places of a collection passing bbox and the property filters. */
export function selectPlaces(store: StoreReader, collection: Collection, params: URLSearchParams): WireRecord[] {
  const box = readBbox(params.get('bbox'));
  const filters = readFilters(params, collection);
  return placeRows(store, collection).filter((row) => {
    const point = pointOf(row);
    if (box && (point === null || !inBbox(box, point.coordinates[0], point.coordinates[1]))) return false;
    return passes(row, filters);
  });
}

/** `properties=a,b`: the variables asked for, or undefined for all; a name that is neither a variable nor an attribute is refused. */
function readProperties(params: URLSearchParams, collection: Collection): string[] | undefined {
  const text = params.get('properties');
  if (text === null) return undefined;
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const variables = new Set(collection.variables.map((v) => v.name));
  const others: readonly string[] = collection.observations ? ['date', collection.nameKey] : attributesOf(collection);
  for (const name of names)
    if (!variables.has(name) && !others.includes(name)) throw new HttpError(400, `properties: unknown property ${JSON.stringify(name.slice(0, 60))}`);
  return names;
}

/** The stream of observations of the given places over the given days (the same library call the OperEvap paths make). */
export function observationStream(
  store: StoreReader,
  collection: Collection,
  names: string[],
  start: string,
  end: string,
  units: UnitSystem,
  variables?: string[],
): RecordStream {
  const query = { names, start, end, units, ...(variables && variables.length > 0 ? { variables } : {}) };
  return collection.dataset === undefined
    ? store.streamStationTimeseries(query)
    : store.streamReservoirTimeseries({ ...query, datasets: [collection.dataset] });
}

/** An observation record as a feature: its place's point, its name, its day and its variables (wire keys, with units: EDR's GeoJSON). */
export function observationFeature(collection: Collection, record: WireRecord, places: Map<string, WireRecord>): Feature {
  const name = String(record[collection.nameKey]);
  const day = String(record.start_date);
  const properties: WireRecord = { [collection.nameKey]: name, date: day };
  for (const [key, value] of Object.entries(record)) {
    if (key === collection.nameKey || key === 'start_date' || key === 'end_date') continue;
    properties[key] = value;
  }
  return { type: 'Feature', id: observationId(name, day), geometry: pointOf(places.get(name)), properties };
}

/** The page's rows as features: each its place's point, its name, its day and its variables under their plain names. */
function frameFeatures(collection: Collection, frame: ObservationFrame, places: Map<string, WireRecord>): Feature[] {
  const { names, days, columns, variables } = frame;
  const features: Feature[] = new Array(days.length);
  for (let i = 0; i < days.length; i++) {
    const [name, day] = [names[i]!, formatDay(days[i]!)];
    const properties: WireRecord = { [collection.nameKey]: name, date: day };
    for (let j = 0; j < variables.length; j++) {
      const value = convert(columns[j]![i]!, variables[j]!);
      properties[variables[j]!.name] = value !== value ? null : roundValue(value);
    }
    features[i] = { type: 'Feature', id: observationId(name, day), geometry: pointOf(places.get(name)), properties };
  }
  return features;
}

/** A station observation as a feature with plain variable names: its record's wire keys (`Tavg (C)`) looked up, not parsed. */
function stationFeature(collection: Collection, record: WireRecord, places: Map<string, WireRecord>, units: UnitSystem, keep?: Set<string>): Feature {
  const feature = observationFeature(collection, record, places);
  const plain = new Map(collection.variables.map((v) => [wireKey(v, units), v.name]));
  const properties: WireRecord = {};
  for (const [key, value] of Object.entries(feature.properties)) {
    const name = plain.get(key) ?? key;
    if (!keep || keep.has(name)) properties[name] = value;
  }
  return { ...feature, properties };
}

/** A page of a collection's observations of `places` over [start, end] and how many there are. */
async function observationPage(
  store: StoreReader,
  collection: Collection,
  places: WireRecord[],
  [start, end]: [string, string],
  { offset, limit, units, wanted }: { offset: number; limit: number; units: UnitSystem; wanted?: string[] },
  ctx: OgcContext,
): Promise<{ features: Feature[]; matched: number }> {
  const names = places.map((row) => String(row[collection.nameKey]));
  const byName = new Map(places.map((row) => [String(row[collection.nameKey]), row]));
  const asked = wanted?.filter((n) => collection.variables.some((v) => v.name === n));
  const chosen = collection.variables.filter((v) => asked === undefined || asked.length === 0 || asked.includes(v.name));
  if (collection.dataset !== undefined) {
    const dataset = collection.dataset as DatasetName;
    const variables = withKeys(
      chosen.map((v) => ({ name: v.name, dataset, unit: v.unit })),
      units,
    );
    const query = { names, startDay: parseDay(start, 'datetime'), endDay: parseDay(end, 'datetime'), variables, offset, limit };
    const page = await store.reservoirObservationPage(dataset, query);
    return { features: frameFeatures(collection, page.frame, byName), matched: page.matched };
  }
  const stream = ctx.admit(observationStream(store, collection, names, start, end, units, asked));
  const page = await pageOf(stream, offset, limit);
  const keep = wanted ? new Set([...wanted, collection.nameKey, 'date']) : undefined;
  return { features: page.records.map((record) => stationFeature(collection, record, byName, units, keep)), matched: page.matched };
}

/** The days asked of an observation collection, clipped to those held; undefined when none are left. */
function daysAsked(store: StoreReader, collection: Collection, params: URLSearchParams): [string, string] | undefined {
  const held = dayRange(store, collection);
  const asked = readDatetime(params.get('datetime'));
  const start = [asked.start, held?.start]
    .filter((d) => d !== undefined)
    .sort()
    .pop();
  const end = [asked.end, held?.end].filter((d) => d !== undefined).sort()[0];
  return held === undefined || start === undefined || end === undefined || start > end ? undefined : [start, end];
}

/** The items answer of a collection. */
export async function items(store: StoreReader, collection: Collection, ctx: OgcContext): Promise<Record<string, unknown>> {
  const params = ctx.params;
  const limit = readCount(params, 'limit', DEFAULT_LIMIT, 1, MAX_LIMIT);
  const offset = readCount(params, 'offset', 0, 0, 999_999_999);
  const units = readUnits(params);
  const wanted = readProperties(params, collection);
  const places = selectPlaces(store, collection, params);
  let features: Feature[];
  let matched: number;
  if (!collection.observations) {
    if (params.has('datetime')) readDatetime(params.get('datetime')); // checked; places have no time
    matched = places.length;
    features = places.slice(offset, offset + limit).map((row) => {
      const properties = { ...row };
      if (wanted) for (const key of Object.keys(properties)) if (!wanted.includes(key)) delete properties[key];
      return { type: 'Feature', id: String(row[collection.nameKey]), geometry: pointOf(row), properties };
    });
  } else {
    const days = daysAsked(store, collection, params);
    if (days === undefined || places.length === 0) [features, matched] = [[], 0];
    else ({ features, matched } = await observationPage(store, collection, places, days, { offset, limit, units, wanted }, ctx));
  }
  const path = `/collections/${encodeURIComponent(collection.id)}/items`;
  const others: Record<string, string> = {};
  for (const [name, value] of params) if (!['f', 'offset', 'limit'].includes(name)) others[name] = value;
  const links = [...selfLinks(ctx, path, GEOJSON, { ...others, limit: String(limit), offset: offset === 0 ? undefined : String(offset) })];
  if (offset + limit < matched)
    links.push(
      link(ctx.href(path, { ...others, limit: String(limit), offset: String(offset + limit) }), 'next', ctx.html ? 'text/html' : GEOJSON, 'next page'),
    );
  if (offset > 0)
    links.push(
      link(
        ctx.href(path, { ...others, limit: String(limit), offset: String(Math.max(0, offset - limit)) }),
        'prev',
        ctx.html ? 'text/html' : GEOJSON,
        'previous page',
      ),
    );
  links.push(link(ctx.href(`/collections/${encodeURIComponent(collection.id)}`), 'collection', 'application/json'));
  return {
    type: 'FeatureCollection',
    features,
    numberMatched: matched,
    numberReturned: features.length,
    timeStamp: new Date().toISOString(),
    links,
  };
}

/** One feature by id: a place's name, or an observation's `name@day`. */
export async function oneItem(store: StoreReader, collection: Collection, featureId: string, ctx: OgcContext): Promise<Feature & { links: unknown[] }> {
  const units = readUnits(ctx.params);
  const rows = placeRows(store, collection);
  const byName = new Map(rows.map((row) => [String(row[collection.nameKey]), row]));
  const missing = () => new HttpError(404, `no feature ${JSON.stringify(featureId.slice(0, 120))} in ${collection.id}`);
  let feature: Feature;
  if (!collection.observations) {
    const row = byName.get(featureId);
    if (!row) throw missing();
    feature = { type: 'Feature', id: featureId, geometry: pointOf(row), properties: { ...row } };
  } else {
    const at = featureId.lastIndexOf('@');
    const name = featureId.slice(0, at);
    const day = featureId.slice(at + 1);
    if (at < 0 || !byName.has(name) || !isCalendarDay(day)) throw missing(); // 2020-02-30 names no feature: 404, not the query's 422
    const held = dayRange(store, collection);
    if (!held || day < held.start || day > held.end) throw missing();
    const page = await observationPage(store, collection, [byName.get(name)!], [day, day], { offset: 0, limit: 1, units }, ctx);
    if (page.features.length === 0) throw missing();
    feature = page.features[0]!;
  }
  const path = `/collections/${encodeURIComponent(collection.id)}/items/${encodeURIComponent(featureId)}`;
  return {
    ...feature,
    links: [...selfLinks(ctx, path, GEOJSON), link(ctx.href(`/collections/${encodeURIComponent(collection.id)}`), 'collection', 'application/json')],
  };
}

function isCalendarDay(text: string): boolean {
  try {
    parseDay(text, 'day');
    return true;
  } catch {
    return false;
  }
}
