// @camptocamp/ogc-client (what web maps use to read OGC APIs) in Node against the server over loopback: the landing
// page, conformance, the collections, one collection's queryables and its items, with the key in its header (links
// carry no key, so a client following them sends it itself).
import { OgcApiEndpoint, setFetchOptions } from '@camptocamp/ogc-client';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../harness.js';

describe('@camptocamp/ogc-client', async () => {
  const server = await startTestServer();
  setFetchOptions({ headers: { 'api-key': server.key } });
  const api = new OgcApiEndpoint(`${server.url}/ogc`);
  const reservoirs = server.store.metadataRows('reservoirs').sort((a, b) => String(a.RES_NAME).localeCompare(String(b.RES_NAME)));

  it('reads the landing page, the conformance classes and the collections', async () => {
    expect((await api.info).title).toMatch(/evap/);
    expect(await api.conformanceClasses).toContain('http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core');
    expect(await api.featureCollections).toEqual(['reservoirs', 'stations', ...server.store.listDatasets(), 'station-values']);
  });

  it('reads a collection: its queryables and its extent', async () => {
    const info = await api.getCollectionInfo('reservoirs');
    expect(info.queryables.map((q) => q.name).sort()).toEqual([...Object.keys(reservoirs[0]!), 'geometry'].sort());
    const lats = reservoirs.map((r) => r.LAT as number);
    expect((info.extent as unknown as { spatial: { bbox: number[][] } }).spatial.bbox[0]![1]).toBe(Math.min(...lats));
  });

  it('reads items equal to the store metadata, and a daily collection with a property filter', async () => {
    const items = await api.getCollectionItems('reservoirs', 1000, 0);
    expect(items.map((f) => f.properties)).toEqual(reservoirs);
    expect(items.map((f) => (f.geometry as { coordinates: number[] }).coordinates)).toEqual(reservoirs.map((r) => [r.LON, r.LAT]));
    const url = await api.getCollectionItemsUrl('lem', { limit: 5, query: 'RES_NAME=LAKE MEAD&datetime=2020-01-01/2020-01-05' });
    const page = (await (await fetch(url, { headers: { 'api-key': server.key } })).json()) as { features: { properties: Record<string, unknown> }[] };
    const expected = await server.store.reservoirTimeseries({ names: ['LAKE MEAD'], datasets: ['lem'], start: '2020-01-01', end: '2020-01-05' });
    expect(page.features.map((f) => f.properties.E_hs)).toEqual(expected.map((r) => r['E_hs (mm)']));
  });
});
