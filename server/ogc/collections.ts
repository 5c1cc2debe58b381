// The collections served from the store: the reservoirs and stations as points, one collection of daily observations
// per reservoir dataset, and the stations' daily observations. Each knows its name key, its variables and its extent.
import {
  attributeInfo,
  datasetNames,
  reservoirAttributes,
  reservoirDatasets,
  stationAttributes,
  stationVariables,
  type UnitName,
  type UnitSystem,
  unitLabel,
} from '../../lib/catalogue.js';
import type { StoreReader } from '../../lib/open/store.js';
import type { WireRecord } from '../../lib/types.js';
import { HttpError } from '../errors.js';

export interface Collection {
  id: string;
  title: string;
  description: string;
  places: 'reservoirs' | 'stations'; // whose points the features stand on
  nameKey: 'RES_NAME' | 'STA_NAME';
  dataset?: string; // a reservoir dataset: its daily observations
  observations: boolean; // features are (name, day) observations, not places
  variables: { name: string; description: string; unit: UnitName }[];
}

/** Every collection, in the order the landing page lists them. */
export const collections: readonly Collection[] = [
  {
    id: 'reservoirs',
    title: 'Reservoirs',
    description: 'Reservoirs as points, every metadata attribute a property',
    places: 'reservoirs',
    nameKey: 'RES_NAME',
    observations: false,
    variables: [],
  },
  {
    id: 'stations',
    title: 'Stations',
    description: 'Weather and water stations as points, every metadata attribute a property',
    places: 'stations',
    nameKey: 'STA_NAME',
    observations: false,
    variables: [],
  },
  ...datasetNames.map(
    (dataset): Collection => ({
      id: dataset,
      title: `Reservoirs, daily: ${dataset}`,
      description: `${reservoirDatasets[dataset].description}: one feature per reservoir and day`,
      places: 'reservoirs',
      nameKey: 'RES_NAME',
      dataset,
      observations: true,
      variables: Object.entries(reservoirDatasets[dataset].variables).map(([name, spec]) => ({
        name,
        description: spec.description,
        unit: spec.unit as UnitName,
      })),
    }),
  ),
  {
    id: 'station-values',
    title: 'Stations, daily',
    description: 'Station measurements: one feature per station and day',
    places: 'stations',
    nameKey: 'STA_NAME',
    observations: true,
    variables: Object.entries(stationVariables).map(([name, spec]) => ({ name, description: spec.description, unit: spec.unit as UnitName })),
  },
];

/** The collection of an id, or a 404 naming the ids. */
export function findCollection(id: string): Collection {
  const found = collections.find((c) => c.id === id);
  if (!found) throw new HttpError(404, `no collection ${JSON.stringify(id.slice(0, 100))}; collections: ${collections.map((c) => c.id).join(', ')}`);
  return found;
}

/** The metadata attributes of a collection's places. */
export function attributesOf(collection: Collection): readonly string[] {
  return collection.places === 'reservoirs' ? reservoirAttributes : stationAttributes;
}

/** The places' rows, sorted by name. */
export function placeRows(store: StoreReader, collection: Collection): WireRecord[] {
  return store.metadataRows(collection.places).sort((a, b) => String(a[collection.nameKey]).localeCompare(String(b[collection.nameKey])));
}

/** The wire key of a variable in a unit system, as the OperEvap paths write it (`NetE (mm)`). */
export function wireKey(variable: { name: string; unit: UnitName }, system: UnitSystem): string {
  return `${variable.name} (${unitLabel(variable.unit, system)})`;
}

/** The first and last day held, for an observation collection. */
export function dayRange(store: StoreReader, collection: Collection): { start: string; end: string } | undefined {
  if (!collection.observations) return undefined;
  const ranges = collection.dataset === undefined ? store.listStationDates() : store.listDates(collection.dataset, collection.variables[0]!.name);
  const starts = ranges.map((r) => r.start_date).sort();
  const ends = ranges.map((r) => r.end_date).sort();
  return starts.length === 0 ? undefined : { start: starts[0]!, end: ends[ends.length - 1]! };
}

/** The queryables of a collection as a JSON Schema (OGC API - Features Part 3), with units. */
export function queryables(collection: Collection, id: string): Record<string, unknown> {
  const properties: Record<string, unknown> = { geometry: { $ref: 'https://geojson.org/schema/Point.json' } };
  for (const name of attributesOf(collection)) {
    const info = (attributeInfo as Record<string, { description: string; unit?: string }>)[name]!;
    const numeric = info.unit !== undefined;
    // format double: a number above 2^31 (CAPACITY_M3) must not be read into a 32-bit integer field
    const type = numeric ? { type: 'number', format: 'double' } : { type: 'string' };
    properties[name] = { title: info.description, ...type, ...(info.unit ? { 'x-ogc-unit': info.unit } : {}) };
  }
  if (collection.observations) properties.date = { title: 'Day of the observation (UTC)', type: 'string', format: 'date' };
  return {
    $schema: 'https://json-schema.org/draft/2019-09/schema',
    $id: id,
    type: 'object',
    title: collection.title,
    properties,
    additionalProperties: false,
  };
}

/** The schema of a collection's features' properties, units included (the `describedby` link). */
export function schemaOf(collection: Collection, system: UnitSystem, id: string): Record<string, unknown> {
  const base = queryables(collection, id);
  const properties = { ...(base.properties as Record<string, unknown>) };
  delete properties.geometry;
  for (const v of collection.variables) properties[v.name] = { title: v.description, type: ['number', 'null'], 'x-ogc-unit': unitLabel(v.unit, system) };
  return { ...base, properties, additionalProperties: true };
}

/**
 * The same properties inside a GeoJSON Feature (`properties.properties`), for a place collection: GDAL (3.6 at least)
 * types its fields from this shape, found by a `describedBy` link, before reading a page; without it, it types them
 * from its first page and clamps a later CAPACITY_M3 above 2^31 to 2,147,483,647.
 */
export function featureSchemaOf(collection: Collection, system: UnitSystem, id: string): Record<string, unknown> {
  const flat = schemaOf(collection, system, id);
  return {
    ...flat,
    properties: {
      type: { type: 'string', enum: ['Feature'] },
      id: { type: 'string' },
      geometry: { $ref: 'https://geojson.org/schema/Point.json' },
      properties: { type: 'object', properties: flat.properties, additionalProperties: true },
    },
    required: ['type', 'geometry', 'properties'],
  };
}
