// The landing page, the conformance classes and the collection documents.
import { unitLabel } from '../../lib/catalogue.js';
import type { StoreReader } from '../../lib/open/store.js';
import { type Collection, collections, dayRange, placeRows } from './collections.js';
import { link, type OgcContext, selfLinks } from './context.js';
import { DEFAULT_WITHIN_KM } from './edr.js';
import { GEOJSON, pointOf } from './items.js';

/** The classes implemented: Features Part 1 (core, GeoJSON, OpenAPI 3.0, HTML), queryables, and EDR core. */
const conformsTo = [
  'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-common-2/1.0/conf/collections',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables-query-parameters',
  'http://www.opengis.net/spec/ogcapi-edr-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-edr-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-edr-1/1.0/conf/covjson',
];

export function landing(ctx: OgcContext): Record<string, unknown> {
  return {
    title: 'evap: reservoir and station evaporation data',
    description:
      'The evap store through OGC API - Features and OGC API - EDR: reservoirs and stations as points, their daily values as features and CoverageJSON series.',
    links: [
      ...selfLinks(ctx, ''),
      link(ctx.href('/openapi', { f: undefined }), 'service-desc', 'application/vnd.oai.openapi+json;version=3.0', 'the OpenAPI 3.0 document of these paths'),
      link(ctx.href('/openapi', { f: 'html' }), 'service-doc', 'text/html', 'this API as a page'),
      link(ctx.href('/conformance'), 'conformance', 'application/json', 'the conformance classes implemented'),
      link(ctx.href('/collections'), 'data', 'application/json', 'the collections'),
    ],
  };
}

export function conformance(ctx: OgcContext): Record<string, unknown> {
  return { conformsTo, links: selfLinks(ctx, '/conformance') };
}

/** A collection's document: extent (the places' box, the days held), links to items, queryables, schema, EDR queries. */
export function collectionDocument(store: StoreReader, collection: Collection, ctx: OgcContext): Record<string, unknown> {
  const points = placeRows(store, collection).flatMap((row) => pointOf(row)?.coordinates ?? []);
  const lons = points.filter((_, i) => i % 2 === 0);
  const lats = points.filter((_, i) => i % 2 === 1);
  const days = dayRange(store, collection);
  const path = `/collections/${encodeURIComponent(collection.id)}`;
  const edr = collection.observations
    ? {
        data_queries: {
          position: {
            link: {
              ...link(ctx.href(`${path}/position`), 'data', 'application/prs.coverage+json', 'the nearest place to a point'),
              // EDR's radius query names its distance so; here it bounds the nearest match (default DEFAULT_WITHIN_KM km)
              variables: { query_type: 'position', within_units: ['km', 'm', 'mi'], default_within: `${DEFAULT_WITHIN_KM} km` },
            },
          },
          area: { link: link(ctx.href(`${path}/area`), 'data', 'application/prs.coverage+json', 'the places in a polygon') },
          locations: { link: link(ctx.href(`${path}/locations`), 'data', GEOJSON, 'the places as locations') },
        },
        parameter_names: Object.fromEntries(
          collection.variables.map((v) => [
            v.name,
            { type: 'Parameter', description: v.description, unit: { symbol: unitLabel(v.unit, 'metric') }, observedProperty: { label: v.description } },
          ]),
        ),
        output_formats: ['CoverageJSON', 'GeoJSON'],
      }
    : {};
  return {
    id: collection.id,
    title: collection.title,
    description: collection.description,
    itemType: 'feature',
    crs: ['http://www.opengis.net/def/crs/OGC/1.3/CRS84'],
    extent: {
      spatial: {
        bbox: [lons.length ? [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)] : [-180, -90, 180, 90]],
        crs: 'http://www.opengis.net/def/crs/OGC/1.3/CRS84',
      },
      ...(days
        ? { temporal: { interval: [[`${days.start}T00:00:00Z`, `${days.end}T00:00:00Z`]], trs: 'http://www.opengis.net/def/uom/ISO-8601/0/Gregorian' } }
        : {}),
    },
    links: [
      ...selfLinks(ctx, path),
      link(ctx.href(`${path}/items`), 'items', GEOJSON, 'the features'),
      link(ctx.href(`${path}/items`, { f: 'html' }), 'items', 'text/html', 'the features as a page'),
      link(ctx.href(`${path}/queryables`), 'http://www.opengis.net/def/rel/ogc/1.0/queryables', 'application/schema+json', 'the properties one may filter on'),
      link(ctx.href(`${path}/schema`), 'describedby', 'application/schema+json', 'the properties, with units'),
      // GDAL looks for this spelling and this shape: it then reads CAPACITY_M3 as a 64-bit number from the first page
      ...(collection.observations
        ? []
        : [link(ctx.href(`${path}/schema`, { profile: 'feature' }), 'describedBy', 'application/schema+json', 'the GeoJSON feature, its properties typed')]),
    ],
    ...edr,
  };
}

export function collectionList(store: StoreReader, ctx: OgcContext): Record<string, unknown> {
  return { collections: collections.map((c) => collectionDocument(store, c, ctx)), links: selfLinks(ctx, '/collections') };
}
