// /openapi.json, generated from the route table and the catalogue so that nothing is written twice.
import { reservoirDatasets, stationVariables, units } from '../lib/catalogue.js';
import { keyHeader } from './auth.js';
import type { ParameterSpec, Route } from './routes.js';

const errorBody = { type: 'object', properties: { detail: {} }, required: ['detail'] };
const validationBody = {
  type: 'object',
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        properties: { loc: { type: 'array', items: { type: 'string' } }, msg: { type: 'string' }, type: { type: 'string' } },
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
  return {
    openapi: '3.0.3',
    info: {
      title: 'Reservoir evaporation API',
      version,
      description: `Daily reservoir and station evaporation data, wire-compatible with the OperEvap API. Send your key in the \`${keyHeader}\` header (the Authorize button). ${describeCatalogue()}`,
    },
    paths,
    components: { securitySchemes: { APIKeyHeader: { type: 'apiKey', in: 'header', name: keyHeader } } },
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
    responses: {
      '200': {
        description: 'JSON by default; CSV with output_format=csv',
        content: { 'application/json': { schema: {} }, 'text/csv': { schema: { type: 'string' } } },
      },
      '401': jsonError('Missing or invalid API key'),
      '404': jsonError('Unknown reservoir or station name'),
      '413': jsonError('Request body over the upload limit'),
      '422': jsonError('Invalid parameter', validationBody),
    },
  };
}

function describeParameter(spec: ParameterSpec): object {
  return {
    name: spec.name,
    in: 'query',
    required: false,
    description: spec.description,
    schema: { type: 'string', ...(spec.default !== undefined ? { default: spec.default } : {}), ...(spec.enum ? { enum: [...spec.enum] } : {}) },
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
          properties: { shapefile_shp: file('shp'), shapefile_dbf: file('dbf'), shapefile_prj: file('prj'), shapefile_shx: file('shx') },
        },
      },
    },
  };
}

// Variables per dataset and the station variables, with metric and English unit labels, for the page's description.
function describeCatalogue(): string {
  const line = (name: string, unit: keyof typeof units) => `${name} (${units[unit].metric} / ${units[unit].english})`;
  const datasets = Object.entries(reservoirDatasets).map(
    ([dataset, entry]) => `**${dataset}**: ${Object.entries(entry.variables).map(([v, spec]) => line(v, spec.unit)).join(', ')}`,
  );
  const stations = Object.entries(stationVariables).map(([v, spec]) => line(v, spec.unit)).join(', ');
  return `\n\nReservoir variables (metric / english units):\n\n${datasets.map((d) => `- ${d}`).join('\n')}\n\nStation variables: ${stations}`;
}
