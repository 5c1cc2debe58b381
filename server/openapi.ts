// /openapi.json, generated from the route table, the operations table (lib/operations.ts) and the catalogue so that nothing is
// written twice.

import { reservoirDatasets, stationVariables, units } from '../lib/catalogue.js';
import type { Parameter } from '../lib/operations.js';
import { attributeSchemas } from './attribute-schemas.js';
import { shapefileParts } from './body.js';
import { keyHeader } from './keys/auth.js';
import { keyRequestFields, REQUEST_KEY_PATH } from './keys/requests.js';
import type { Route } from './route.js';

const errorBody = { type: 'object', properties: { detail: {} }, required: ['detail'] };
const validationBody = {
  type: 'object',
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        // as FastAPI (pydantic v2) writes them, in this order; input is what was sent, null when the parameter was left out
        properties: {
          type: { type: 'string' },
          loc: { type: 'array', items: { type: 'string' } },
          msg: { type: 'string' },
          input: { description: 'what was sent for the parameter: its text for a query parameter; null when left out' },
        },
        required: ['type', 'loc', 'msg', 'input'],
      },
    },
  },
};
const jsonError = (description: string, schema: object = errorBody) => ({ description, content: { 'application/json': { schema } } });

/** The OpenAPI 3.0 document of every route, with the api-key header as its security scheme. */
export function buildOpenApi(routes: readonly Route[], version = '0.1.0'): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = describeRoute(route);
  }
  paths[REQUEST_KEY_PATH] = { get: describeKeyRequest() };
  return {
    openapi: '3.0.3',
    info: {
      title: 'Reservoir evaporation API',
      version,
      description: `Daily reservoir and station evaporation data, wire-compatible with the OperEvap API. Send your key in the \`${keyHeader}\` header (the Authorize button). ${describeCatalogue()}`,
    },
    paths,
    components: { securitySchemes: { APIKeyHeader: { type: 'apiKey', in: 'header', name: keyHeader } }, schemas: attributeSchemas() },
    security: [{ APIKeyHeader: [] }],
  };
}

function describeRoute(route: Route): object {
  return {
    tags: [route.tag],
    summary: route.summary,
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+/g, '_')}`,
    parameters: route.parameters.map(describeParameter),
    ...(route.upload ? { requestBody: uploadBody() } : {}),
    ...(route.body ? { requestBody: parametersBody(route) } : {}),
    responses: {
      '200': {
        description: 'JSON by default; otherwise as output_format says',
        content: answerTypes(route),
      },
      '401': jsonError('Missing or invalid API key'),
      '404': jsonError('Unknown reservoir or station name'),
      '413': jsonError('Request body over the upload limit'),
      '422': jsonError('Invalid parameter', validationBody),
    },
  };
}

// A list travels as one comma-separated string, so its default is written that way. It stays a string here: as an
// array (style form, explode false) generated clients would type it as one, and some (openapi-fetch's default
// serializer) send an array as repeated parameters, of which the server reads only the last; an enum on the string
// would refuse every list of two. So a closed list's entries are a pattern on the string, which openapi-generator's
// validating clients and Swagger UI check and openapi-typescript ignores (the type stays string), and are in the
// description. The pattern is plain (alternation and \s only, no lookaround) so that every regex engine takes it.
function describeParameter(p: Parameter): object {
  const fallback = typeof p.default === 'string' ? p.default : p.default?.join(', ');
  const allowed = p.values ? (p.kind === 'one' ? { enum: [...p.values] } : { pattern: listPattern(p.values) }) : {};
  return {
    name: p.name,
    in: 'query',
    required: false,
    description: p.description,
    schema: { type: 'string', ...(fallback !== undefined ? { default: fallback } : {}), ...allowed },
  };
}

/** A comma-separated list of at least one of `values`, as the server splits it: spaces around entries and empty entries allowed. */
function listPattern(values: readonly string[]): string {
  const entry = `(?:${values.map((v) => v.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})`;
  return `^[\\s,]*${entry}(?:\\s*,[\\s,]*${entry})*[\\s,]*$`;
}

// GET /auth/request_key: how one asks for a key, so the one operation open without one
function describeKeyRequest(): object {
  return {
    tags: ['Auth'],
    summary: 'Ask the operator for an API key (the request is queued for the operator, who sends the key by email)',
    operationId: 'get_auth_request_key',
    security: [],
    parameters: Object.entries(keyRequestFields).map(([name, field]) => ({
      name,
      in: 'query',
      required: true,
      description: `${field.description} (at most ${field.max} characters)`,
      schema: { type: 'string', maxLength: field.max },
    })),
    responses: {
      '200': {
        description: 'The request is queued',
        content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' }, request_id: { type: 'string' } } } } },
      },
      '422': jsonError('A field missing, too long or malformed', validationBody),
      '429': jsonError('Too many key requests; retry after Retry-After seconds'),
      '503': jsonError('This server takes no key requests, or its queue is full'),
    },
  };
}

// the media type of each output_format a route offers
const mediaTypes: Record<string, string> = {
  json: 'application/json',
  csv: 'text/csv',
  parquet: 'application/vnd.apache.parquet',
  arrow: 'application/vnd.apache.arrow.stream',
  geojson: 'application/geo+json',
};
function answerTypes(route: Route): object {
  const formats = route.parameters.find((p) => p.name === 'output_format')?.values ?? ['json'];
  return Object.fromEntries(
    formats.map((f) => [
      mediaTypes[f] ?? 'application/json',
      { schema: f === 'json' || f === 'geojson' ? {} : { type: 'string', ...(f === 'csv' ? {} : { format: 'binary' }) } },
    ]),
  );
}

// a POST twin: the query parameters as a JSON object (lists as arrays or comma-separated) or a urlencoded form
function parametersBody(route: Route): object {
  const properties = Object.fromEntries(
    route.parameters.map((p) => [p.name, { description: p.description, oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }]),
  );
  const form = Object.fromEntries(route.parameters.map((p) => [p.name, { type: 'string', description: p.description }]));
  return {
    required: false,
    content: {
      'application/json': { schema: { type: 'object', properties } },
      'application/x-www-form-urlencoded': { schema: { type: 'object', properties: form } },
    },
  };
}

function uploadBody(): object {
  const file = (ext: string) => ({ type: 'string', format: 'binary', description: `Optional .${ext} part of a polygon shapefile` });
  return {
    required: false,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: Object.fromEntries(shapefileParts.map((part) => [`shapefile_${part}`, file(part)])),
        },
      },
    },
  };
}

// Variables per dataset and the station variables, with metric and English unit labels, for the page's description.
function describeCatalogue(): string {
  const line = (name: string, unit: keyof typeof units) => `${name} (${units[unit].metric} / ${units[unit].english})`;
  const datasets = Object.entries(reservoirDatasets).map(
    ([dataset, entry]) =>
      `**${dataset}**: ${Object.entries(entry.variables)
        .map(([v, spec]) => line(v, spec.unit))
        .join(', ')}`,
  );
  const stations = Object.entries(stationVariables)
    .map(([v, spec]) => line(v, spec.unit))
    .join(', ');
  return `\n\nReservoir variables (metric / english units):\n\n${datasets.map((d) => `- ${d}`).join('\n')}\n\nStation variables: ${stations}`;
}
