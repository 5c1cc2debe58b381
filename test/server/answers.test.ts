// server/answers.ts: Parquet, Arrow and GeoJSON answers through the app (no socket), read back by other readers:
// parquet-wasm and DuckDB for Parquet, apache-arrow and parquet-wasm (arrow-rs) for the Arrow stream; GeoJSON checked
// against RFC 7946. A long JSON answer streamed from a warm cache still lets other work in between chunks; WholeResponse
// is a plain web Response to any reader, and its body as given to the node adapter.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import * as wasm from 'parquet-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../lib/open/store.js';
import { streamResponse, WholeResponse } from '../../server/answers.js';
import { tableRecords, tempDir } from '../helpers.js';
import { type TestApp, testApp } from './harness.js';

let app: TestApp;
let dir: string;
beforeAll(async () => {
  app = await testApp();
  dir = await tempDir();
});

const bytesOf = async (path: string, type: string) => {
  const response = await app.get(path);
  expect(response.status, path).toBe(200);
  expect(response.headers.get('content-type')).toBe(type);
  return new Uint8Array(await response.arrayBuffer());
};
const jsonOf = async (path: string) => (await (await app.get(path)).json()) as Record<string, unknown>[];
// rows of an Arrow table as plain objects (Int32 and Float64 as numbers, nulls as null, dates as YYYY-MM-DD)
const plain = tableRecords;

const paths = [
  '/timeseries/monthly/reservoirs/daterange?RES_NAMES=LAKE%20MEAD,LAKE%20ALICE&start_date=2019-11-15&end_date=2020-03-31&units=english&also_return=qflag,LAT',
  '/timeseries/water-year/stations/daterange?STA_NAMES=LAKE%20MEAD_STATION&start_date=2015-01-01&end_date=2020-12-31',
  '/timeseries/normals/reservoirs?RES_NAMES=LAKE%20POWELL&datasets=nete-volume-calcs',
  '/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20ALICE&start_date=2020-01-01&end_date=2020-02-15&datasets=rtma',
  '/timeseries/stations/date?date=2020-07-01',
];

describe('output_format=parquet', () => {
  it("is read back by parquet-wasm and DuckDB with the JSON answer's columns and values", async () => {
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    for (const [i, path] of paths.entries()) {
      const expected = await jsonOf(path);
      const bytes = await bytesOf(`${path}&output_format=parquet`, 'application/vnd.apache.parquet');
      const table = tableFromIPC(wasm.readParquet(bytes).intoIPCStream());
      expect(
        table.schema.fields.map((f) => f.name),
        path,
      ).toEqual(Object.keys(expected[0]!));
      expect(plain(table), path).toEqual(expected);
      const file = join(dir, `answer-${i}.parquet`);
      await writeFile(file, bytes);
      const read = await duck.runAndReadAll(`select * from read_parquet('${file}')`);
      expect(read.columnNames(), path).toEqual(Object.keys(expected[0]!));
      expect(
        read
          .getRowObjectsJson()
          .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d/.test(v) && k.includes(' (') ? Number(v) : v]))),
        path,
      ).toEqual(expected);
    }
    duck.closeSync();
  });

  it('types dates as DATE, gives each measured column its unit, and carries the provenance in the key-value metadata', async () => {
    const path =
      '/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MEAD&datasets=res,nete-volume-calcs&variables=area_m2,NetE&start_date=2020-01-01&end_date=2020-01-03&also_return=Shape_Area,ELEV_M,qflag&units=english&output_format=parquet';
    const file = join(dir, 'typed.parquet');
    await writeFile(file, await bytesOf(path, 'application/vnd.apache.parquet'));
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const types = (await duck.runAndReadAll(`describe select * from read_parquet('${file}')`)).getRowObjectsJson().map((r) => [r.column_name, r.column_type]);
    expect(types.slice(0, 3)).toEqual([
      ['RES_NAME', 'VARCHAR'],
      ['start_date', 'DATE'],
      ['end_date', 'DATE'],
    ]);
    const kv = (await duck.runAndReadAll(`select decode(key) as k, decode(value) as v from parquet_kv_metadata('${file}')`)).getRowObjectsJson();
    const about = (await (await app.get('/info/about')).json()) as Record<string, string>;
    expect(kv).toContainEqual({ k: 'evap.data', v: about.data });
    expect(kv).toContainEqual({ k: 'evap.citation', v: about.citation });
    duck.closeSync();
    const fields = tableFromIPC(wasm.readParquet(await bytesOf(path, 'application/vnd.apache.parquet')).intoIPCStream()).schema.fields;
    expect(Object.fromEntries(fields.map((f) => [f.name, f.metadata.get('unit') ?? null]))).toEqual({
      RES_NAME: null,
      start_date: null,
      end_date: null,
      'area_m2 (acre)': 'acre',
      'NetE (in)': 'in',
      Shape_Area: 'm2', // metadata are never converted
      ELEV_M: 'm',
      qflag: null,
    });
    const arrow = tableFromIPC(await bytesOf(path.replace('parquet', 'arrow'), 'application/vnd.apache.arrow.stream'));
    expect(arrow.schema.metadata.get('evap.data')).toBe(about.data);
    expect(arrow.schema.fields.find((f) => f.name === 'Shape_Area')?.metadata.get('unit')).toBe('m2');
  });

  it('keeps the columns of an empty answer', async () => {
    const bytes = await bytesOf(
      '/timeseries/monthly/reservoirs/daterange?RES_NAMES=LAKE%20MEAD&variables=NetE,E_volume&datasets=nete-volume-calcs&start_date=1990-01-01&end_date=1990-12-31&output_format=parquet',
      'application/vnd.apache.parquet',
    );
    const table = tableFromIPC(wasm.readParquet(bytes).intoIPCStream());
    expect(table.numRows).toBe(0);
    expect(table.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual([
      'RES_NAME:Utf8',
      'start_date:Date32<DAY>',
      'end_date:Date32<DAY>',
      'n_days:Int32',
      'n_qflag_M:Int32',
      'n_qflag_S:Int32',
      'n_qflag_R:Int32',
      'NetE (mm):Float64',
      'E_volume (m3):Float64',
      'NetE (mm) n:Int32',
      'E_volume (m3) n:Int32',
    ]);
  });
});

describe('output_format=arrow', () => {
  it("is an Arrow IPC stream that apache-arrow and arrow-rs (parquet-wasm) read with the JSON answer's rows", async () => {
    for (const path of paths) {
      const expected = await jsonOf(path);
      const bytes = await bytesOf(`${path}&output_format=arrow`, 'application/vnd.apache.arrow.stream');
      expect(plain(tableFromIPC(bytes)), path).toEqual(expected);
      const viaRust = wasm.Table.fromIPCStream(bytes);
      expect(viaRust.numBatches > 0 || expected.length === 0).toBe(true);
      expect(plain(tableFromIPC(viaRust.intoIPCStream())), path).toEqual(expected);
    }
  });

  it('refuses a format the path does not offer, naming those it does', async () => {
    const response = await app.get('/timeseries/monthly/reservoirs/daterange?output_format=geojson');
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      detail: [
        { type: 'enum', loc: ['query', 'output_format'], msg: 'output_format must be one of json, csv, parquet, arrow; got "geojson"', input: 'geojson' },
      ],
    });
    expect((await app.get('/metadata/reservoirs?output_format=parquet')).status).toBe(422);
  });
});

describe('output_format=geojson', () => {
  type Feature = { type: string; id: string; geometry: { type: string; coordinates: number[] } | null; properties: Record<string, unknown> };
  const collection = async (path: string, init?: RequestInit) => {
    const response = await app.get(path, init);
    expect(response.status, path).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/geo+json');
    const value = (await response.json()) as { type: string; features: Feature[]; crs?: unknown };
    // RFC 7946 3.3: a FeatureCollection has "features", an array of Features; 4: no "crs" member (WGS 84 only)
    expect(Object.keys(value).sort()).toEqual(['features', 'type']);
    expect(value.type).toBe('FeatureCollection');
    for (const f of value.features) {
      expect(f.type).toBe('Feature');
      expect(f.geometry!.type).toBe('Point');
      expect(f.geometry!.coordinates).toHaveLength(2);
    }
    return value.features;
  };

  it('puts longitude first (RFC 7946 3.1.1) and every metadata attribute in properties', async () => {
    const features = await collection('/metadata/reservoirs?RES_NAMES=LAKE%20MEAD,LAKE%20ALICE&output_format=geojson');
    const metadata = await jsonOf('/metadata/reservoirs?RES_NAMES=LAKE%20MEAD,LAKE%20ALICE');
    expect(features.map((f) => f.properties)).toEqual(metadata);
    const mead = features.find((f) => f.id === 'LAKE MEAD')!;
    // Lake Mead lies near 36.1 N, 114.4 W: x is the negative longitude, y the latitude
    expect(mead.geometry!.coordinates[0]).toBeGreaterThan(-115.5);
    expect(mead.geometry!.coordinates[0]).toBeLessThan(-113.5);
    expect(mead.geometry!.coordinates[1]).toBeGreaterThan(35.5);
    expect(mead.geometry!.coordinates[1]).toBeLessThan(36.8);
    expect(mead.geometry!.coordinates).toEqual([mead.properties.LON, mead.properties.LAT]);
  });

  it('answers station metadata and both name listings as points', async () => {
    const stations = await collection('/metadata/stations?STA_NAMES=LAKE%20MEAD_STATION&output_format=geojson');
    expect(stations.map((f) => f.id)).toEqual(['LAKE MEAD_STATION']);
    const names = ((await (await app.get('/info/list_RES_NAMES', { method: 'POST' })).json()) as { RES_NAMES: string[] }).RES_NAMES;
    const all = await collection('/info/list_RES_NAMES?output_format=geojson', { method: 'POST' });
    expect(all.map((f) => f.id)).toEqual(names);
    const everyStation = await collection('/info/list_STA_NAMES?output_format=geojson', { method: 'POST' });
    expect(everyStation.length).toBe(app.store.manifest.stations.names.length);
  });
});

describe('streamResponse', () => {
  it('yields to the event loop between the chunks of a long answer', async () => {
    const store = await openStore();
    const query = { names: store.manifest.reservoirs.names, datasets: ['rtma'], start: '2019-01-01', end: '2021-12-31' };
    const stream = () => store.streamReservoirTimeseries(query);
    for await (const chunk of stream().json()) void chunk; // fill the cache: every later chunk is ready at once
    const reader = (await streamResponse('json', stream())).body!.getReader();
    let chunks = 0;
    let chunksWhenTimerFired = -1;
    setTimeout(() => (chunksWhenTimerFired = chunks), 0);
    while (!(await reader.read()).done) chunks++;
    expect(chunks).toBeGreaterThan(50);
    expect(chunksWhenTimerFired).toBeGreaterThanOrEqual(0);
    expect(chunksWhenTimerFired).toBeLessThan(chunks / 4); // a small request waits a chunk or two, not the whole answer
  });
});

describe('WholeResponse', () => {
  it('reads like a Response made of the same body and init', async () => {
    const response = new WholeResponse('{"detail":"x"}', { status: 404, headers: { 'content-type': 'application/json' } });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"detail":"x"}');
  });

  it('keeps the body as given, text or bytes, even after the stream is read', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const response = new WholeResponse(bytes, {});
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    expect(response.whole).toBe(bytes);
    expect(new WholeResponse('text', {}).whole).toBe('text');
  });

  it('is not what a plain Response is', () => {
    expect(new Response('text')).not.toBeInstanceOf(WholeResponse);
  });
});
