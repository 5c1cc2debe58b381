// The answer of an EDR query (locations/{id}, position, area): each place's daily series, one CoverageJSON point series
// per place (a CoverageCollection) or GeoJSON observation features, written place by place as the store's stream gives
// them, so an answer over thousands of places is never held whole and other requests are answered meanwhile.
import type { UnitSystem } from '../../lib/catalogue.js';
import type { StoreReader } from '../../lib/open/store.js';
import { compareText } from '../../lib/order.js';
import { nextTurn, PIECE_VALUES } from '../../lib/turns.js';
import type { WireRecord } from '../../lib/types.js';
import { textResponse } from '../answers.js';
import { HttpError } from '../errors.js';
import { type Collection, dayRange, wireKey } from './collections.js';
import type { OgcContext } from './context.js';
import { htmlPage } from './html.js';
import { GEOJSON, observationFeature, observationStream, pointOf } from './items.js';
import { readDatetime, readUnits } from './parameters.js';

const COVJSON = 'application/prs.coverage+json';

/** The most values (days x parameters x places) one EDR answer holds; above it the answer is refused before it starts (ask for fewer days). */
const MAX_EDR_VALUES = 2_000_000;

/**
 * How much a stored row weighs in an EDR answer against a daily JSON answer of the same rows (admission.ts): CPU per
 * answer, 1,500 reservoirs x 2 years of NetE, in process: daily JSON 1.74 s, CoverageJSON 0.89 s (a coverage writes
 * each name once), GeoJSON 4.37 s (a feature per day, 220 MB). CoverageJSON is never lighter than the daily answer.
 */
export const EDR_WEIGHT = { coverage: 1, geojson: 3 };

/** Features written per string: a few hundred bytes each, so a string stays under V8's large-object size (lib/format/bytes.ts). */
const FEATURES_PER_PIECE = 200;

const bad = (message: string) => new HttpError(400, message);

/**
 * The series of some places over the asked days and parameters, with `tail` (nearest, links) after the coverages or
 * features; admitted as a heavy answer when it reads many rows, refused (400) when it could hold more than MAX_EDR_VALUES.
 */
export async function seriesAnswer(
  store: StoreReader,
  collection: Collection,
  places: WireRecord[],
  ctx: OgcContext,
  title: string,
  tail: Record<string, unknown>,
): Promise<Response> {
  const units = readUnits(ctx.params);
  const wanted = readParameters(ctx.params, collection);
  const held = dayRange(store, collection);
  const asked = readDatetime(ctx.params.get('datetime'));
  const start = [asked.start, held?.start]
    .filter((d) => d !== undefined)
    .sort()
    .pop();
  const end = [asked.end, held?.end].filter((d) => d !== undefined).sort()[0];
  const variables = collection.variables.filter((v) => wanted === undefined || wanted.includes(v.name));
  const names = places.map((row) => String(row[collection.nameKey]));
  const byName = new Map(places.map((row) => [String(row[collection.nameKey]), row]));
  const geojson = ['GeoJSON', 'geojson'].includes(ctx.params.get('f') ?? '');
  let batches: AsyncIterable<WireRecord[]> = (async function* () {})();
  if (names.length > 0 && start !== undefined && end !== undefined && start <= end) {
    // asked in name order, so that the store reads the names in groups (every row group once); given back in `names` order
    const stream = observationStream(store, collection, [...names].sort(compareText), start, end, units, wanted);
    if (stream.maxRecords * variables.length > MAX_EDR_VALUES)
      throw bad(`the answer would hold more than ${MAX_EDR_VALUES} values: ask for fewer days (datetime), parameters or places`);
    batches = ctx.admit(stream, geojson ? EDR_WEIGHT.geojson : EDR_WEIGHT.coverage).batches;
  }
  const series = byPlace(batches, names, collection.nameKey);
  if (geojson) {
    let count = 0;
    const features = async function* () {
      for await (const [, records] of series)
        for (let from = 0; from < records.length; from += FEATURES_PER_PIECE) {
          const piece = records.slice(from, from + FEATURES_PER_PIECE).map((r) => observationFeature(collection, r, byName));
          count += piece.length;
          yield piece;
        }
    };
    const head = { type: 'FeatureCollection' };
    if (ctx.html) {
      const all = [];
      for await (const piece of features()) all.push(...piece);
      return htmlPage(title, { ...head, features: all, numberReturned: count, ...tail });
    }
    const texts = mapAsync(features(), (piece) => JSON.stringify(piece).slice(1, -1));
    return textResponse(
      collectionText(head, 'features', texts, () => ({ numberReturned: count, ...tail })),
      GEOJSON,
    );
  }
  const coverages = async function* () {
    for await (const [name, records] of series) {
      const point = pointOf(byName.get(name));
      if (point !== null) yield coverage(name, point.coordinates, records, variables, units);
    }
  };
  const head = {
    type: 'CoverageCollection',
    domainType: 'PointSeries',
    parameters: Object.fromEntries(variables.map((v) => [v.name, parameter(v, units)])),
    referencing: referencing(),
  };
  if (ctx.html) {
    const all = [];
    for await (const one of coverages()) all.push(one);
    return htmlPage(title, { ...head, coverages: all, ...tail });
  }
  return textResponse(
    collectionText(
      head,
      'coverages',
      mapAsync(coverages(), (one) => JSON.stringify(one)),
      () => tail,
    ),
    COVJSON,
  );
}

/**
 * The records of a stream in name order (sorted by compareText, a place's records together) as each place's records
 * in `names` order, a place given once the stream has passed it (a place without records gets none). Where the two
 * orders agree (they differ only where localeCompare does) one place is held at a time. A turn of the event loop
 * every PIECE_VALUES records: batches from a warm cache are ready at once.
 */
export async function* byPlace(batches: AsyncIterable<WireRecord[]>, names: readonly string[], nameKey: string): AsyncGenerator<[string, WireRecord[]]> {
  const rank = new Map([...names].sort(compareText).map((name, i) => [name, i]));
  const held = new Map<string, WireRecord[]>();
  let next = 0; // names[next] is given next
  let passed = 0; // the stream has given every record of the places ranked below this
  let sinceTurn = 0;
  for await (const batch of batches) {
    for (const record of batch) {
      const name = String(record[nameKey]);
      passed = Math.max(passed, rank.get(name) ?? passed);
      const list = held.get(name);
      if (list) list.push(record);
      else held.set(name, [record]);
    }
    for (; next < names.length && rank.get(names[next]!)! < passed; next++) {
      yield [names[next]!, held.get(names[next]!) ?? []];
      held.delete(names[next]!);
    }
    sinceTurn += batch.length;
    if (sinceTurn >= PIECE_VALUES) {
      sinceTurn = 0;
      await nextTurn();
    }
  }
  for (; next < names.length; next++) yield [names[next]!, held.get(names[next]!) ?? []];
}

/** JSON text of `{...head, key: [items], ...tail()}` in chunks, the items' text given one by one (tail asked at the end). */
async function* collectionText(
  head: Record<string, unknown>,
  key: string,
  items: AsyncIterable<string>,
  tail: () => Record<string, unknown>,
): AsyncGenerator<string> {
  yield `${JSON.stringify(head).slice(0, -1)},${JSON.stringify(key)}:[`;
  let first = true;
  for await (const item of items) {
    if (!first) yield ','; // a chunk of its own: joined to the item it made a string the socket's write flattened again
    yield item;
    first = false;
  }
  const rest = JSON.stringify(tail());
  yield rest === '{}' ? ']}' : `],${rest.slice(1)}`;
}

async function* mapAsync<T, U>(items: AsyncIterable<T>, f: (item: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield f(item);
}

/** parameter-name (or parameter_names, as OWSLib sends): variable names of the collection; undefined for all. */
function readParameters(params: URLSearchParams, collection: Collection): string[] | undefined {
  const text = params.get('parameter-name') ?? params.get('parameter_names');
  if (text === null) return undefined;
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  for (const name of names)
    if (!collection.variables.some((v) => v.name === name))
      throw bad(
        `parameter-name: ${JSON.stringify(name.slice(0, 60))} is not a parameter of ${collection.id}; parameters: ${collection.variables.map((v) => v.name).join(', ')}`,
      );
  return names;
}

function referencing() {
  return [
    { coordinates: ['x', 'y'], system: { type: 'GeographicCRS', id: 'http://www.opengis.net/def/crs/OGC/1.3/CRS84' } },
    { coordinates: ['t'], system: { type: 'TemporalRS', calendar: 'Gregorian' } },
  ];
}

function parameter(v: Collection['variables'][number], units: UnitSystem) {
  const key = wireKey(v, units);
  const symbol = key.slice(v.name.length + 2, -1);
  return { type: 'Parameter', description: { en: v.description }, unit: { symbol }, observedProperty: { id: v.name, label: { en: v.description } } };
}

function coverage(name: string, [lon, lat]: [number, number], rows: WireRecord[], variables: Collection['variables'], units: UnitSystem) {
  return {
    type: 'Coverage',
    id: name,
    domain: {
      type: 'Domain',
      domainType: 'PointSeries',
      axes: { x: { values: [lon] }, y: { values: [lat] }, t: { values: rows.map((r) => `${r.start_date}T00:00:00Z`) } },
      referencing: referencing(),
    },
    ranges: Object.fromEntries(
      variables.map((v) => [
        v.name,
        {
          type: 'NdArray',
          dataType: 'float',
          axisNames: ['t'],
          shape: [rows.length],
          values: rows.map((r) => (r[wireKey(v, units)] as number | null | undefined) ?? null),
        },
      ]),
    ),
  };
}
