// The catalog and the S3 endpoint through the handler (no socket): the specification's shapes and errors, the key as a
// bearer token or an S3 access key, and every object equal to the store's file (data) or to it relocated (metadata).
import { readdir, readFile, stat } from 'node:fs/promises';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { decodeManifestList } from '../../../lib/tables/manifests.js';
import { fetchFrom } from '../../../server/app.js';
import { createDatabasesHandler } from '../../../server/databases.js';
import { KeyRing } from '../../../server/keys/auth.js';
import { cleanUp, tempDir, writeTinyStore } from '../../helpers.js';

const KEY = 'catalog-key';
const TABLE = 'reservoir_nete_volume_calcs';

async function tinyServer(rateLimitPerMinute = 0) {
  const dir = await tempDir();
  await writeTinyStore(dir);
  const store = await openStore(dir);
  cleanUp(() => store.close());
  const logs: string[] = [];
  const handler = createDatabasesHandler({
    databases: [{ name: 'tiny', store }],
    keys: KeyRing.fromKeys([KEY]),
    rateLimitPerMinute,
    logError: (l) => logs.push(l),
  });
  const fetch = fetchFrom(handler);
  const bearer = { authorization: `Bearer ${KEY}` };
  // an S3 client's signed request names the key as its access key id (the signature is not checked)
  const signed = { authorization: `AWS4-HMAC-SHA256 Credential=${KEY}/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=00` };
  return { dir, logs, fetch, bearer, signed };
}

describe('the Iceberg REST catalog', () => {
  it('advertises only the reads it serves, and the S3 endpoint of the server as asked for', async () => {
    const { fetch, bearer } = await tinyServer();
    const config = (await (await fetch('/iceberg/v1/config?warehouse=any', { headers: { ...bearer, host: 'evap.example:8080' } })).json()) as {
      defaults: Record<string, string>;
      overrides: object;
      endpoints: string[];
    };
    expect(config.endpoints.every((e) => /^(GET|HEAD) \/v1\/\{prefix\}\/namespaces/.test(e))).toBe(true);
    expect(config.endpoints).toContain('GET /v1/{prefix}/namespaces/{namespace}/tables/{table}');
    expect(config.defaults['s3.endpoint']).toMatch(/^http:\/\/[^/]+$/);
    expect(config.defaults['s3.path-style-access']).toBe('true');
  });

  it('refuses a request without an accepted key, in the error model', async () => {
    const { fetch } = await tinyServer();
    for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
      const response = await fetch('/iceberg/v1/namespaces', { headers });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { type: string; code: number } }).error).toMatchObject({ type: 'NotAuthorizedException', code: 401 });
    }
    expect((await fetch('/iceberg/v1/namespaces', { headers: { 'api-key': KEY } })).status).toBe(200);
  });

  it('counts catalog requests against the rate limit', async () => {
    const { fetch, bearer } = await tinyServer(1);
    expect((await fetch('/iceberg/v1/namespaces', { headers: bearer })).status).toBe(200);
    const limited = await fetch('/iceberg/v1/namespaces', { headers: bearer });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
  });

  it('has one namespace per database, with no namespace inside it', async () => {
    const { fetch, bearer } = await tinyServer();
    expect(await (await fetch('/iceberg/v1/namespaces', { headers: bearer })).json()).toEqual({ namespaces: [['tiny']] });
    expect(await (await fetch('/iceberg/v1/namespaces?parent=tiny', { headers: bearer })).json()).toEqual({ namespaces: [] });
    const missing = await fetch('/iceberg/v1/namespaces?parent=other', { headers: bearer });
    expect([missing.status, ((await missing.json()) as { error: { type: string } }).error.type]).toEqual([404, 'NoSuchNamespaceException']);
    expect((await fetch('/iceberg/v1/namespaces/tiny', { method: 'HEAD', headers: bearer })).status).toBe(204);
    expect((await fetch('/iceberg/v1/namespaces/other', { method: 'HEAD', headers: bearer })).status).toBe(404);
  });

  it('lists the tables whose metadata the store has, and answers HEAD for each', async () => {
    const { dir, fetch, bearer } = await tinyServer();
    const listed = (await (await fetch('/iceberg/v1/namespaces/tiny/tables', { headers: bearer })).json()) as {
      identifiers: { namespace: string[]; name: string }[];
    };
    const onDisk = (await readdir(`${dir}/tables`, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(listed.identifiers.map((i) => i.name).sort()).toEqual(onDisk.sort());
    expect(listed.identifiers.every((i) => i.namespace.join() === 'tiny')).toBe(true);
    expect((await fetch(`/iceberg/v1/namespaces/tiny/tables/${TABLE}`, { method: 'HEAD', headers: bearer })).status).toBe(204);
    const missing = await fetch('/iceberg/v1/namespaces/tiny/tables/nothing', { headers: bearer });
    expect([missing.status, ((await missing.json()) as { error: { type: string } }).error.type]).toEqual([404, 'NoSuchTableException']);
  });

  it('refuses writes as an unsupported operation', async () => {
    const { fetch, bearer } = await tinyServer();
    for (const [method, path] of [
      ['POST', '/iceberg/v1/namespaces'],
      ['DELETE', `/iceberg/v1/namespaces/tiny/tables/${TABLE}`],
      ['POST', `/iceberg/v1/namespaces/tiny/tables/${TABLE}`],
    ] as const) {
      const response = await fetch(path, { method, headers: bearer, body: method === 'POST' ? '{}' : undefined });
      expect(response.status, `${method} ${path}`).toBe(406);
    }
  });

  it('loads a table: the stored metadata relocated to the bucket, which the S3 endpoint serves the same', async () => {
    const { dir, fetch, bearer, signed } = await tinyServer();
    const response = await fetch(`/iceberg/v1/namespaces/tiny/tables/${TABLE}`, { headers: bearer });
    const text = await response.text();
    expect(text).not.toContain(dir); // nothing names the server's disk
    const loaded = JSON.parse(text) as { 'metadata-location': string; metadata: object; config: Record<string, string> };
    const hint = (await readFile(`${dir}/tables/${TABLE}/metadata/version-hint.text`, 'utf8')).trim();
    const file = await readFile(`${dir}/tables/${TABLE}/metadata/v${hint}.metadata.json`, 'utf8');
    expect(loaded.metadata).toEqual(JSON.parse(file.replaceAll(`file://${dir}`, 's3://evap.tiny')));
    expect(loaded['metadata-location']).toBe(`s3://evap.tiny/tables/${TABLE}/metadata/v${hint}.metadata.json`);
    expect(loaded.config['s3.access-key-id']).toBe(KEY); // the caller's own key, as S3 access key
    expect(response.headers.get('cache-control')).toBe('no-store');
    const served = await fetch(`/${loaded['metadata-location'].slice('s3://'.length)}`, { headers: signed });
    expect(JSON.parse(await served.text())).toEqual(loaded.metadata);
  });
});

describe('the S3 endpoint', () => {
  it('serves a data file whole and by ranges, byte for byte, and its size by HEAD', async () => {
    const { dir, fetch, signed } = await tinyServer();
    const folder = 'reservoirs/dataset=nete-volume-calcs/year=2021';
    const name = (await readdir(`${dir}/${folder}`)).find((f) => f.endsWith('.parquet'))!;
    const bytes = await readFile(`${dir}/${folder}/${name}`);
    const path = `/evap.tiny/${folder.replaceAll('=', '%3D')}/${name}`;
    expect(Buffer.from(await (await fetch(path, { headers: signed })).arrayBuffer()).equals(bytes)).toBe(true);
    for (const [range, from, to] of [
      ['bytes=4-99', 4, 100],
      ['bytes=-8', bytes.length - 8, bytes.length],
      [`bytes=10-${bytes.length + 50}`, 10, bytes.length],
    ] as const) {
      const part = await fetch(path, { headers: { ...signed, range } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes ${from}-${to - 1}/${bytes.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(from, to))).toBe(true);
    }
    expect((await fetch(path, { headers: { ...signed, range: `bytes=${bytes.length}-` } })).status).toBe(416);
    const head = await fetch(path, { method: 'HEAD', headers: signed });
    expect(head.headers.get('content-length')).toBe(String((await stat(`${dir}/${folder}/${name}`)).size));
  });

  it('lists a table metadata folder with the sizes it serves, and manifest lengths matching the manifests served', async () => {
    const { dir, fetch, signed } = await tinyServer();
    const prefix = `tables/${TABLE}/metadata/`;
    const xml = await (await fetch(`/evap.tiny?list-type=2&prefix=${encodeURIComponent(prefix)}`, { headers: signed })).text();
    const listed = new XMLParser().parse(xml).ListBucketResult as { Contents: { Key: string; Size: number }[] };
    const contents = [listed.Contents].flat();
    expect(contents.map((c) => c.Key).sort()).toEqual((await readdir(`${dir}/${prefix}`)).map((f) => `${prefix}${f}`).sort());
    for (const c of contents) {
      const body = new Uint8Array(await (await fetch(`/evap.tiny/${c.Key}`, { headers: signed })).arrayBuffer());
      expect(body.byteLength, c.Key).toBe(c.Size);
      if (c.Key.includes('/snap-'))
        for (const entry of decodeManifestList(body)) {
          const manifest = contents.find((m) => `s3://evap.tiny/${m.Key}` === entry.manifest_path);
          expect(manifest?.Size, entry.manifest_path).toBe(entry.manifest_length);
        }
    }
    // a delimiter rolls keys up into common prefixes
    const rolled = new XMLParser().parse(await (await fetch('/evap.tiny?list-type=2&prefix=tables/&delimiter=/', { headers: signed })).text()).ListBucketResult;
    expect([rolled.CommonPrefixes].flat().map((p: { Prefix: string }) => p.Prefix)).toContain(`tables/${TABLE}/`);
  });

  it('refuses without the key, and serves nothing but the tables and Parquet files', async () => {
    const { fetch, signed } = await tinyServer();
    const refused = await fetch('/evap.tiny?list-type=2');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('<Code>AccessDenied</Code>');
    for (const path of ['/evap.tiny/manifest.json', '/evap.tiny/tables/../manifest.json', '/evap.tiny/%2E%2E/x.parquet']) {
      expect((await fetch(path, { headers: signed })).status, path).toBe(404);
    }
    expect((await fetch('/evap.other/x.parquet', { headers: signed })).status).toBe(404);
    expect((await fetch(`/evap.tiny/tables/${TABLE}/metadata/version-hint.text`, { method: 'PUT', headers: signed, body: '9' })).status).toBe(405);
  });
});
