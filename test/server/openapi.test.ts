// /openapi.json checked against the server's behaviour over real HTTP: every documented operation is served, every
// documented default is what the server does without the parameter, every documented enum value is taken and any
// other value refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

interface Parameter {
  name: string;
  in: string;
  schema: { default?: string; enum?: string[] };
}
type Spec = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

let server: TestServer;
let spec: Spec;
let gets: [string, Parameter[]][];
beforeAll(async () => {
  server = await startTestServer();
  const response = await fetch(`${server.url}/openapi.json`); // no key needed for the description
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  spec = (await response.json()) as Spec;
  gets = Object.entries(spec.paths).flatMap(([path, methods]) => (methods.get ? [[path, methods.get.parameters ?? []] as [string, Parameter[]]] : []));
});
afterAll(() => server.close());

const answer = async (path: string, params: Record<string, string> = {}, method = 'GET') => {
  const query = new URLSearchParams(params).toString();
  const response = await server.get(query ? `${path}?${query}` : path, { method });
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
        expect([200, 404], `${method} ${path}: ${body.slice(0, 200)}`).toContain(status);
        expect(body, `${method} ${path}`).not.toBe(notFound.body); // a 404 here names the data it lacks, not the path
      }
    }
  });

  it('gives as each default what the server does when the parameter is left out', async () => {
    let compared = 0;
    for (const [path, parameters] of gets) {
      const defaults = Object.fromEntries(parameters.filter((p) => p.in === 'query' && p.schema.default !== undefined).map((p) => [p.name, p.schema.default!]));
      if (Object.keys(defaults).length === 0) continue;
      const [explicit, implicit] = [await answer(path, defaults), await answer(path)];
      compared++;
      if (!path.includes('/stations') || explicit.body === implicit.body) {
        expect(implicit, path).toEqual(explicit);
        continue;
      }
      // station paths document every station variable as the default, but leave out those the stations asked for
      // hold no value of: the same answer, less the columns that are empty in the explicit one
      expect(implicit.status, path).toBe(explicit.status);
      const full = JSON.parse(explicit.body) as Record<string, unknown>[];
      const variableOf = (key: string) => key.slice(0, key.indexOf(')') + 1); // "ETo (mm) p90" -> "ETo (mm)"; "" for other keys
      const keys = Object.keys(full[0] ?? {});
      const empty = new Set(keys.filter((k) => variableOf(k) !== '').map(variableOf));
      for (const key of keys) if (full.some((r) => r[key] !== null && !(key.endsWith(' n') && r[key] === 0))) empty.delete(variableOf(key));
      expect(empty.size, path).toBeGreaterThan(0);
      const dropped = full.map((r) => Object.fromEntries(Object.entries(r).filter(([key]) => !empty.has(variableOf(key)))));
      expect(JSON.parse(implicit.body), path).toEqual(dropped);
    }
    expect(compared).toBe(gets.filter(([, ps]) => ps.some((p) => p.schema.default !== undefined)).length);
  });

  it('takes every value of each enum, and refuses any other with a 422 naming the parameter', async () => {
    for (const [path, parameters] of gets) {
      for (const parameter of parameters.filter((p) => p.schema.enum)) {
        for (const value of parameter.schema.enum!) {
          const { status, body } = await answer(path, { [parameter.name]: value });
          // a 422 may come from another parameter's default that does not fit this value (dataset=rtma, variable=NetE)
          if (status === 422) expect(JSON.stringify(JSON.parse(body).detail.map((d: { loc: string[] }) => d.loc)), `${path} ${parameter.name}=${value}`).not.toContain(`"${parameter.name}"`);
          else expect(status, `${path} ${parameter.name}=${value}: ${body.slice(0, 200)}`).toBe(200);
        }
        const { status, body } = await answer(path, { [parameter.name]: 'no-such-value' });
        expect(status, `${path} ${parameter.name}`).toBe(422);
        expect(JSON.stringify(JSON.parse(body).detail), `${path} ${parameter.name}`).toContain(parameter.name);
      }
    }
  });
});
