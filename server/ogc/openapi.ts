// The OpenAPI 3.0 document of the OGC paths (the landing page's service-desc): what GDAL and OWSLib read to learn
// the paths and parameters.

import { collections } from './collections.js';
import { KEY_PARAMETER } from './context.js';
import { DEFAULT_WITHIN_KM } from './edr.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from './parameters.js';

const text = (name: string, description: string, required = false) => ({ name, in: 'query', required, description, schema: { type: 'string' } });
const pathParam = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
const ok = (type: string, description: string) => ({
  200: { description, content: { [type]: { schema: { type: 'object' } } } },
  400: { description: 'a bad parameter' },
  404: { description: 'no such collection or feature' },
});

export function ogcOpenApi(base: string): Record<string, unknown> {
  const f = text('f', 'json (default) or html');
  const units = { ...text('units', 'metric (default) or english'), schema: { type: 'string', enum: ['metric', 'english'], default: 'metric' } };
  const asOf = text('as_of', 'answer from the store as it was then (an ISO date or time)');
  const datetime = text('datetime', 'a day or an interval start/end, .. for an open end (RFC 3339)');
  const collectionId = { ...pathParam('collectionId', 'a collection'), schema: { type: 'string', enum: collections.map((c) => c.id) } };
  const edrParams = [
    collectionId,
    datetime,
    text('parameter-name', 'variables, comma-separated (parameter_names also taken)'),
    units,
    asOf,
    text('f', 'CoverageJSON (default) or GeoJSON'),
  ];
  return {
    openapi: '3.0.3',
    info: {
      title: 'evap OGC API - Features and EDR',
      version: '1.0.0',
      description: `Every path needs an API key: the ${'api-key'} header, or the ${KEY_PARAMETER} query parameter for clients that cannot set headers.`,
    },
    servers: [{ url: base }],
    components: {
      securitySchemes: {
        header: { type: 'apiKey', in: 'header', name: 'api-key' },
        query: { type: 'apiKey', in: 'query', name: KEY_PARAMETER },
      },
    },
    security: [{ header: [] }, { query: [] }],
    paths: {
      '/': { get: { operationId: 'getLandingPage', summary: 'landing page', parameters: [f], responses: ok('application/json', 'the landing page') } },
      '/conformance': {
        get: { operationId: 'getConformanceDeclaration', summary: 'conformance classes', parameters: [f], responses: ok('application/json', 'the classes') },
      },
      '/collections': {
        get: { operationId: 'getCollections', summary: 'the collections', parameters: [f], responses: ok('application/json', 'the collections') },
      },
      '/collections/{collectionId}': {
        get: {
          operationId: 'describeCollection',
          summary: 'one collection',
          parameters: [collectionId, f],
          responses: ok('application/json', 'the collection'),
        },
      },
      '/collections/{collectionId}/queryables': {
        get: {
          operationId: 'getQueryables',
          summary: 'the properties to filter on',
          parameters: [collectionId],
          responses: ok('application/schema+json', 'a JSON Schema'),
        },
      },
      '/collections/{collectionId}/schema': {
        get: {
          operationId: 'getSchema',
          summary: 'the properties, with units',
          parameters: [collectionId, units, text('profile', 'feature: the properties inside a GeoJSON Feature, the shape GDAL reads')],
          responses: ok('application/schema+json', 'a JSON Schema'),
        },
      },
      '/collections/{collectionId}/items': {
        get: {
          operationId: 'getFeatures',
          summary: 'features; any queryable as a parameter filters on it (RES_NAME=LAKE MEAD)',
          parameters: [
            collectionId,
            {
              name: 'limit',
              in: 'query',
              description: `features a page (at most ${MAX_LIMIT}; a larger limit gets that many)`,
              schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
            },
            {
              name: 'offset',
              in: 'query',
              description: 'features skipped (the next and prev links set it)',
              schema: { type: 'integer', minimum: 0, default: 0 },
            },
            {
              name: 'bbox',
              in: 'query',
              description: 'minLon,minLat,maxLon,maxLat (WGS 84)',
              style: 'form',
              explode: false,
              schema: { type: 'array', minItems: 4, maxItems: 6, items: { type: 'number' } },
            },
            datetime,
            text('properties', 'the properties kept, comma-separated'),
            units,
            asOf,
            f,
          ],
          responses: ok('application/geo+json', 'a FeatureCollection'),
        },
      },
      '/collections/{collectionId}/items/{featureId}': {
        get: {
          operationId: 'getFeature',
          summary: 'one feature (a name, or name@YYYY-MM-DD for an observation)',
          parameters: [collectionId, pathParam('featureId', 'the feature'), units, asOf, f],
          responses: ok('application/geo+json', 'a Feature'),
        },
      },
      '/collections/{collectionId}/locations': {
        get: { operationId: 'getLocations', summary: 'EDR: the places', parameters: [collectionId], responses: ok('application/geo+json', 'the places') },
      },
      '/collections/{collectionId}/locations/{locationId}': {
        get: {
          operationId: 'getLocation',
          summary: 'EDR: the series of one place',
          parameters: [...edrParams, pathParam('locationId', 'a place name')],
          responses: ok('application/prs.coverage+json', 'CoverageJSON'),
        },
      },
      '/collections/{collectionId}/position': {
        get: {
          operationId: 'getPosition',
          summary: 'EDR: the series of the place nearest a point, with its distance; 404 when none is within `within`',
          parameters: [
            ...edrParams,
            text('coords', 'POINT(lon lat)', true),
            text('within', `how far to look (default ${DEFAULT_WITHIN_KM} km)`),
            text('within-units', 'km (default), m or mi'),
          ],
          responses: ok('application/prs.coverage+json', 'CoverageJSON'),
        },
      },
      '/collections/{collectionId}/area': {
        get: {
          operationId: 'getArea',
          summary: 'EDR: the series of the places inside a polygon',
          parameters: [...edrParams, text('coords', 'POLYGON((lon lat, ...))', true)],
          responses: ok('application/prs.coverage+json', 'CoverageJSON'),
        },
      },
    },
  };
}
