// /openapi.json against the wire table and against the server itself, over real HTTP: every route lists exactly the
// parameters the server reads, with the table's defaults, allowed values and descriptions; every allowed value is
// answered and any other is a 422 naming them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservoirDatasets, type DatasetName } from '../../lib/catalogue.js';
import { monthlyOnly, wireOperations, wireParameters, type WireParameter } from '../../lib/sync/wire.js';
import { routes, type Route } from '../../server/routes.js';
import { startTestServer, type TestServer } from './harness.js';

interface Operation {
  parameters: { name: string; in: string; required: boolean; description: string; schema: { type: string; default?: string; enum?: string[] } }[];
  security?: unknown[];
}

const limits = { maxNames: 3, maxVariables: 3 };
let server: TestServer;
let spec: { paths: Record<string, Record<string, Operation>> };
beforeAll(async () => {
  server = await startTestServer({ limits });
  spec = (await (await server.get('/openapi.json')).json()) as typeof spec;
});
afterAll(() => server.close());

// the routes a client calls by their own method: GET paths, and the POST-only listings (a POST twin reads as its GET)
const asked = routes.filter((r) => r.method === 'GET' || !routes.some((g) => g.path === r.path && g.method === 'GET'));
const annualLike = (route: Route) => /^\/timeseries\/(annual|water-year)\//.test(route.path);

async function answer(route: Route, params: Record<string, string>): Promise<{ status: number; body: string }> {
  const response = await server.get(`${route.path}?${new URLSearchParams(params)}`, { method: route.method });
  return { status: response.status, body: await response.text() };
}

// what a value needs beside it to make a valid query: a dataset's own variable (the default variables span all four)
function companions(route: Route, name: string, value: string): Record<string, string> {
  const firstVariable = (dataset: string) => Object.keys(reservoirDatasets[dataset as DatasetName].variables)[0]!;
  if (name === 'datasets') return { variables: firstVariable(value) };
  if (name === 'dataset' && route.path === '/info/list_dates') return { variable: firstVariable(value) };
  return {};
}

describe('/openapi.json', () => {
  it("lists every route with exactly the wire table's parameters, defaults, allowed values and descriptions", () => {
    for (const route of routes) {
      const operation = spec.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      const ids = wireOperations[route.operation].filter((id) => !(annualLike(route) && monthlyOnly.includes(id)));
      const expected = ids.map((id): Operation['parameters'][number] => {
        const p: WireParameter = wireParameters[id];
        const fallback = p.default === undefined ? {} : { default: typeof p.default === 'string' ? p.default : p.default.join(', ') };
        return { name: p.name, in: 'query', required: false, description: p.description, schema: { type: 'string', ...fallback, ...(p.shape === 'one' && p.values ? { enum: [...p.values] } : {}) } };
      });
      expect(operation!.parameters, `${route.method} ${route.path}`).toEqual(expected);
    }
    const documented = Object.entries(spec.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual([...routes.map((r) => `${r.method} ${r.path}`), 'GET /auth/request_key'].sort());
  });

  it('gives the closed sets of the public service and the library (written here by hand)', () => {
    const formats = (path: string) =>
      path.startsWith('/timeseries/') ? ['json', 'csv', 'parquet', 'arrow'] : /^\/(metadata\/|info\/list_(RES|STA)_NAMES)/.test(path) ? ['json', 'csv', 'geojson'] : ['json', 'csv'];
    const sets: Record<string, string[]> = { units: ['metric', 'english'], statistic: ['sum', 'mean', 'min', 'max'], compare_to: ['normal'], period: ['month', 'day'], dataset: ['rtma', 'res', 'lem', 'nete-volume-calcs'] };
    for (const [path, methods] of Object.entries(spec.paths)) {
      for (const operation of Object.values(methods)) {
        for (const p of operation.parameters) {
          const expected = p.name === 'output_format' ? formats(path) : sets[p.name];
          expect(p.schema.enum, `${path} ${p.name}`).toEqual(expected);
        }
      }
    }
  });

  it('lists GET /auth/request_key with its three required fields, open without a key', async () => {
    const operation = spec.paths['/auth/request_key']!.get!;
    expect(operation.security).toEqual([]);
    expect(operation.parameters.map((p) => [p.name, p.required])).toEqual([['name', true], ['email', true], ['justification', true]]);
    // this test server has no requests file: it says so, rather than asking for a key
    const response = await fetch(`${server.url}/auth/request_key?name=a&email=a@b.cd&justification=x`);
    expect(response.status).toBe(503);
  });
});

describe('the server reads the parameters /openapi.json lists, and no other', () => {
  // a value every parameter refuses: more entries than the limit for a list, a word no closed set or date has for one
  const bad = (name: string) => (wireParameterByName(name).shape === 'list' ? 'a,b,c,d' : 'zz-not-allowed');
  const wireNames = [...new Set(Object.values(wireParameters as Record<string, WireParameter>).map((p) => p.name))];

  it.each(asked.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_, route) => {
    const listed = spec.paths[route.path]![route.method.toLowerCase()]!.parameters;
    for (const p of listed) {
      // the base period is read for compare_to=normal only on aggregates
      const context: Record<string, string> = /^\/timeseries\/monthly\//.test(route.path) && p.name.startsWith('base_') ? { compare_to: 'normal' } : {};
      const { status, body } = await answer(route, { ...context, [p.name]: bad(p.name) });
      expect(status, `${p.name}: ${body}`).toBe(422);
      expect((JSON.parse(body) as { detail: { loc: string[] }[] }).detail[0]!.loc, body).toEqual(['query', p.name]);
    }
    for (const name of wireNames.filter((n) => !listed.some((p) => p.name === n))) {
      const exception = annualLike(route) && name === 'compare_to'; // read, though not listed, so that the library can say why it is refused
      const { status, body } = await answer(route, { [name]: exception ? 'normal' : bad(name) });
      if (exception) {
        expect(status, body).toBe(422);
        expect(body).toMatch(/monthly aggregates only/);
      } else expect(status, `${name} is not listed, so ignored: ${body}`).toBe(200);
    }
  }, 60_000);
});

describe('allowed values', () => {
  it.each(asked.map((r) => [`${r.method} ${r.path}`, r] as const))('%s answers each and refuses any other with a 422 naming them', async (_, route) => {
    for (const p of route.parameters.filter((q) => q.values)) {
      for (const value of p.values!) {
        const { status, body } = await answer(route, { ...companions(route, p.name, value), [p.name]: value });
        expect(status, `${p.name}=${value}: ${body.slice(0, 300)}`).toBe(200);
      }
      const { status, body } = await answer(route, { [p.name]: 'zz-outside' });
      expect(status, body).toBe(422);
      const [error] = (JSON.parse(body) as { detail: { loc: string[]; msg: string; type: string }[] }).detail;
      expect(error!.loc).toEqual(['query', p.name]);
      expect(error!.type).toBe('enum');
      for (const value of p.values!) expect(error!.msg, `${p.name}: ${error!.msg}`).toContain(value);
    }
  }, 60_000);
});

function wireParameterByName(name: string): WireParameter {
  return Object.values(wireParameters as Record<string, WireParameter>).find((p) => p.name === name)!;
}
