// /openapi.json against the operations table and against the server itself, through the app (no socket): every route lists exactly the
// parameters the server reads, with the table's defaults, allowed values and descriptions; every allowed value is
// answered and any other is a 422 naming them.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DatasetName, defaults, reservoirDatasets, stationVariables } from '../../lib/catalogue.js';
import { monthlyOnly, operations, type Parameter, parameters } from '../../lib/operations.js';
import { type Route, routes } from '../../server/routes.js';
import { type TestApp, testApp } from './harness.js';

interface Operation {
  parameters: {
    name: string;
    in: string;
    required: boolean;
    description: string;
    schema: { type: string; default?: string; enum?: string[]; pattern?: string };
  }[];
  security?: unknown[];
}

const limits = { maxNames: 3, maxVariables: 3 };
let app: TestApp;
let spec: { paths: Record<string, Record<string, Operation>> };
beforeAll(async () => {
  app = await testApp({ limits });
  spec = (await (await app.get('/openapi.json')).json()) as typeof spec;
});

// the routes a client calls by their own method: GET paths, and the POST-only listings (a POST twin reads as its GET)
const asked = routes.filter((r) => r.method === 'GET' || !routes.some((g) => g.path === r.path && g.method === 'GET'));
const annualLike = (route: Route) => /^\/timeseries\/(annual|water-year)\//.test(route.path);

async function answer(route: Route, params: Record<string, string>): Promise<{ status: number; body: string }> {
  const response = await app.get(`${route.path}?${new URLSearchParams(params)}`, { method: route.method });
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
  it("lists every route with exactly the operations table's parameters, defaults, allowed values and descriptions", () => {
    for (const route of routes) {
      const operation = spec.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      const listed = operations[route.operation].parameters.filter((p: Parameter) => p.in !== 'path' && !(annualLike(route) && monthlyOnly.includes(p)));
      const expected = listed.map((p: Parameter): Operation['parameters'][number] => {
        const fallback = p.default === undefined ? {} : { default: typeof p.default === 'string' ? p.default : p.default.join(', ') };
        return {
          name: p.name,
          in: 'query',
          required: false,
          description: p.description,
          // a closed list's pattern is checked against the server below
          schema: {
            type: 'string',
            ...fallback,
            ...(p.values ? (p.kind === 'one' ? { enum: [...p.values] } : { pattern: expect.any(String) }) : {}),
          },
        };
      });
      expect(operation!.parameters, `${route.method} ${route.path}`).toEqual(expected);
    }
    const documented = Object.entries(spec.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual([...routes.map((r) => `${r.method} ${r.path}`), 'GET /auth/request_key'].sort());
  });

  it('gives the closed sets of the public service and the library (written here by hand)', () => {
    const formats = (path: string) =>
      path.startsWith('/timeseries/') || path.startsWith('/model/') || /^\/forecast\/(daily|total|verification)\//.test(path)
        ? ['json', 'csv', 'parquet', 'arrow']
        : /^\/(metadata\/|info\/list_(RES|STA)_NAMES)/.test(path)
          ? ['json', 'csv', 'geojson']
          : ['json', 'csv'];
    const sets: Record<string, string[]> = {
      units: ['metric', 'english'],
      statistic: ['sum', 'mean', 'min', 'max'],
      compare_to: ['normal'],
      period: ['month', 'day'],
      dataset: ['rtma', 'res', 'lem', 'nete-volume-calcs'],
      interval: ['daily', 'monthly', 'annual', 'water-year'], // the what-if's, a query parameter there
    };
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
    expect(operation.parameters.map((p) => [p.name, p.required])).toEqual([
      ['name', true],
      ['email', true],
      ['justification', true],
    ]);
    // this test server has no requests file: it says so, rather than asking for a key
    const response = await app.fetch(`/auth/request_key?name=a&email=a@b.cd&justification=x`);
    expect(response.status).toBe(503);
  });
});

describe('the server reads the parameters /openapi.json lists, and no other', () => {
  // a value every parameter refuses: more entries than the limit for a list, a word no closed set or date has for one
  const bad = (name: string) => (wireParameterByName(name).kind === 'list' ? 'a,b,c,d' : 'zz-not-allowed');
  const wireNames = [...new Set(Object.values(parameters as Record<string, Parameter>).map((p) => p.name))];

  it.each(asked.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s',
    async (_, route) => {
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
    },
    60_000,
  );
});

describe('allowed values', () => {
  it.each(asked.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s answers each and refuses any other with a 422 naming them',
    async (_, route) => {
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
    },
    60_000,
  );
});

function wireParameterByName(name: string): Parameter {
  return Object.values(parameters as Record<string, Parameter>).find((p) => p.name === name)!;
}

// The same description read only as a client reads it: every documented operation is served, every documented default
// is what the server does without the parameter, every enum value is taken and any other refused.
describe('/openapi.json as a client reads it', () => {
  interface Parameter {
    name: string;
    in: string;
    schema: { default?: string; enum?: string[] };
  }
  type Spec = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

  let app: TestApp;
  let spec: Spec;
  let gets: [string, Parameter[]][];
  beforeAll(async () => {
    app = await testApp();
    const response = await app.fetch(`/openapi.json`); // no key needed for the description
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    spec = (await response.json()) as Spec;
    gets = Object.entries(spec.paths).flatMap(([path, methods]) => (methods.get ? [[path, methods.get.parameters ?? []] as [string, Parameter[]]] : []));
  });

  const answer = async (path: string, params: Record<string, string> = {}, method = 'GET') => {
    const query = new URLSearchParams(params).toString();
    const response = await app.get(query ? `${path}?${query}` : path, { method });
    return { status: response.status, body: await response.text() };
  };

  describe('/openapi.json', () => {
    it('documents operations that are all served, and an unknown path is the only plain Not Found', async () => {
      expect(gets.length).toBeGreaterThan(10);
      const notFound = await answer('/no/such/path');
      expect(notFound.status).toBe(404);
      for (const [path, methods] of Object.entries(spec.paths)) {
        for (const method of Object.keys(methods)) {
          const { status, body } = await answer(path, {}, method.toUpperCase());
          // asking for a key needs the three fields, and a server without a requests file takes no key requests
          const served = path === '/auth/request_key' ? [422, 503] : [200, 404];
          expect(served, `${method} ${path}: ${body.slice(0, 200)}`).toContain(status);
          expect(body, `${method} ${path}`).not.toBe(notFound.body); // a 404 here names the data it lacks, not the path
        }
      }
    });

    it('gives as each default what the server does when the parameter is left out', async () => {
      let compared = 0;
      for (const [path, parameters] of gets) {
        const defaults = Object.fromEntries(
          parameters.filter((p) => p.in === 'query' && p.schema.default !== undefined).map((p) => [p.name, p.schema.default!]),
        );
        if (Object.keys(defaults).length === 0) continue;
        const [explicit, implicit] = [await answer(path, defaults), await answer(path)];
        compared++;
        expect(implicit, path).toEqual(explicit);
      }
      expect(compared).toBe(gets.filter(([, ps]) => ps.some((p) => p.schema.default !== undefined)).length);
    });

    it('takes every value of each enum, and refuses any other with a 422 naming the parameter', async () => {
      for (const [path, parameters] of gets) {
        for (const parameter of parameters.filter((p) => p.schema.enum)) {
          for (const value of parameter.schema.enum!) {
            const { status, body } = await answer(path, { [parameter.name]: value });
            // a 422 may come from another parameter's default that does not fit this value (dataset=rtma, variable=NetE)
            if (status === 422)
              expect(JSON.stringify(JSON.parse(body).detail.map((d: { loc: string[] }) => d.loc)), `${path} ${parameter.name}=${value}`).not.toContain(
                `"${parameter.name}"`,
              );
            else expect(status, `${path} ${parameter.name}=${value}: ${body.slice(0, 200)}`).toBe(200);
          }
          const { status, body } = await answer(path, { [parameter.name]: 'no-such-value' });
          expect(status, `${path} ${parameter.name}`).toBe(422);
          expect(JSON.stringify(JSON.parse(body).detail), `${path} ${parameter.name}`).toContain(parameter.name);
        }
      }
    });
  });
});

// The lists with a closed set of entries (datasets, also_return) stay comma-separated strings in the description; their
// entries are named in the description and are a pattern on the string, which takes what the server answers.
describe('closed lists in /openapi.json', () => {
  let app: TestApp; // the default limits: every entry of a list fits in one request
  let spec: { paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    app = await testApp();
    spec = (await (await app.fetch(`/openapi.json`)).json()) as typeof spec;
  });

  const ask = async (route: Route, params: Record<string, string>) => {
    const response = await app.get(`${route.path}?${new URLSearchParams(params)}`, { method: route.method });
    return { status: response.status, body: await response.text() };
  };
  const lists = asked.flatMap((route) =>
    route.parameters.filter((p) => p.kind === 'list' && p.values).map((p) => [`${route.method} ${route.path} ${p.name}`, route, p] as const),
  );

  it('are the lists of the operations table with allowed values', () => {
    expect(new Set(lists.map(([, , p]) => p.name))).toEqual(new Set(['datasets', 'also_return', 'variables', 'statistics'])); // the last two: the forecasts'
  });

  it.each(lists)('%s: names each entry, and its pattern takes exactly the lists of them the server answers', async (_, route, p) => {
    const documented = spec.paths[route.path]![route.method.toLowerCase()]!.parameters.find((q) => q.name === p.name)!;
    expect(documented.schema.type).toBe('string'); // the plain comma string a client sends
    for (const value of p.values!) expect(documented.description).toContain(value);
    const pattern = new RegExp(documented.schema.pattern!, 'u');
    const valid = p.values!;
    // entries joined as people write them: spaces around commas, empty entries, a leading or trailing comma
    const list = fc
      .tuple(
        fc.array(fc.constantFrom(...valid), { minLength: 1, maxLength: valid.length + 1 }),
        fc.array(fc.constantFrom(',', ', ', ' ,', ' , ', ',,', ',\t'), { minLength: valid.length + 1, maxLength: valid.length + 1 }),
        fc.constantFrom('', ' ', ','),
        fc.constantFrom('', ' ', ','),
      )
      .map(([entries, separators, head, tail]) => head + entries.map((e, i) => (i === 0 ? e : separators[i] + e)).join('') + tail);
    const first = (text: string) =>
      text
        .split(',')
        .find((e) => e.trim() !== '')!
        .trim();
    const outside = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
      .filter((e) => !e.includes(',') && e.trim() !== '' && !valid.includes(e.trim()));
    await fc.assert(
      fc.asyncProperty(list, outside, fc.nat(), async (text, other, at) => {
        expect(pattern.test(text), text).toBe(true);
        const taken = await ask(route, { ...companions(route, p.name, first(text)), [p.name]: text });
        expect(taken.status, `${p.name}=${text}: ${taken.body.slice(0, 200)}`).toBe(200);
        // one entry outside the set: the pattern refuses the list, and so does the server
        const entries = text.split(',');
        entries.splice(at % (entries.length + 1), 0, other);
        const bad = entries.join(',');
        expect(pattern.test(bad), bad).toBe(false);
        const refused = await ask(route, { ...companions(route, p.name, first(text)), [p.name]: bad });
        expect(refused.status, `${p.name}=${bad}`).toBe(422);
        expect((JSON.parse(refused.body) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['query', p.name]);
      }),
      { numRuns: 8, examples: [[valid.join(','), 'x', 0]] },
    );
  });

  it('describes station variables left out as those the stations hold, which is what the server answers', async () => {
    const route = asked.find((r) => r.path === '/timeseries/stations/daterange')!;
    const documented = spec.paths[route.path]!.get!.parameters.find((q) => q.name === 'variables')!;
    expect(documented.schema.default).toBeUndefined(); // not every station variable, as the public service documents
    expect(documented.description).toMatch(/Left out: the variables the requested stations hold.*\/info\/list_stations_variables/);
    const names = defaults.STA_NAMES.join(',');
    const held = (await (await app.get(`/info/list_stations_variables?STA_NAMES=${encodeURIComponent(names)}`)).json()) as { api_name: string }[];
    const records = (await (await app.get('/timeseries/stations/daterange')).json()) as Record<string, unknown>[];
    const answered = Object.keys(records[0]!)
      .filter((key) => key.includes(' ('))
      .map((key) => key.slice(0, key.indexOf(' (')));
    expect(answered.sort()).toEqual(held.map((v) => v.api_name).sort());
    expect(answered.length).toBeLessThan(Object.keys(stationVariables).length);
  });
});
