// A store's provenance: written by the generator, carried by every later snapshot and by a mirror, checked on read.
import { describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../../lib/format/csv.js';
import { ingest, textSource } from '../../../lib/ingest/ingest.js';
import { openStore } from '../../../lib/open/store.js';
import { mirrorAbout, OPEREVAP_URL, syntheticAbout } from '../../../lib/store/about.js';
import { parseManifest } from '../../../lib/store/manifest.js';
import { mirror } from '../../../lib/sync/mirror.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { serveSmallStore, tempDir, tinyReservoirs, writeTinyStore } from '../../helpers.js';

const small = await serveSmallStore();

describe('store provenance', () => {
  it('is synthetic in a generated store, and later snapshots carry it', async () => {
    expect(small.store.manifest.about).toEqual(syntheticAbout(7));
    expect(small.store.synthetic).toBe(true);
    const dir = await tempDir();
    await writeTinyStore(dir);
    const before = await openStore(dir);
    expect([before.about().data, before.synthetic]).toEqual(['unknown', false]);
    const writer = createStoreWriter(dir, { base: before.manifest });
    writer.setAbout({ ...syntheticAbout(1), data: 'ingested', source: 'files', title: 'loaded by hand' });
    await writer.commit();
    const next = createStoreWriter(dir, { base: (await openStore(dir)).manifest }); // a later write that says nothing of it
    await next.writeReservoirMetadata(tinyReservoirs);
    await next.commit();
    expect((await openStore(dir)).about()).toMatchObject({ data: 'ingested', title: 'loaded by hand' });
  });

  it('refuses a manifest whose provenance is malformed', () => {
    const manifest = { ...small.store.manifest };
    const text = (about: unknown) => JSON.stringify({ ...manifest, about });
    expect(() => parseManifest(text({ ...syntheticAbout(1), data: 'real' }))).toThrow(/about\.data/);
    expect(() => parseManifest(text({ ...syntheticAbout(1), citation: 3 }))).toThrow(/about\.citation/);
    expect(() => parseManifest(text({ data: 'mirror' }))).toThrow(/about\.title is missing/);
    expect(parseManifest(text(syntheticAbout(1))).about).toEqual(syntheticAbout(1));
  });

  it("repeats the public service's citation and provisional statement in a mirror of it", () => {
    const about = mirrorAbout(`${OPEREVAP_URL}/`, '2025-06-01T00:00:00.000Z');
    expect(about).toMatchObject({ data: 'mirror', retrieved: '2025-06-01T00:00:00.000Z' });
    expect(about.citation).toMatch(/Zhao, G\., & Gao, H\. \(2019\)/);
    expect(about.status).toMatch(/provisional/);
    expect(about.model).toMatch(/Daily Lake Evaporation Model/);
  });

  it('is carried by evap mirror from the server it copies, with the time of retrieval', async () => {
    const dir = await tempDir();
    const began = new Date().toISOString();
    await mirror(dir, { baseUrl: small.server.url, apiKey: small.server.key });
    const copy = await openStore(dir);
    const about = copy.about();
    expect(about.data).toBe('synthetic'); // a copy of synthetic data stays synthetic
    expect(about.title).toContain(`copied from ${small.server.url}`);
    expect(about.retrieved! >= began).toBe(true);
    expect(copy.synthetic).toBe(true);
  });
});

describe('ingest provenance', () => {
  it('records a store first made from files as ingested, naming them, and keeps a provenance already there', async () => {
    const rows = await small.store.reservoirTimeseries({ names: [small.names[0]!], start: '2020-12-28', end: '2020-12-30' });
    const csv = recordsToCsv(rows, Object.keys(rows[0]!));
    const places = small.store.reservoirMetadata([small.names[0]!]);
    const metadata = recordsToCsv(places, Object.keys(places[0]!));
    const fresh = await tempDir();
    await ingest(fresh, [textSource('mead-metadata.csv', metadata), textSource('mead-2020.csv', csv)]);
    expect((await openStore(fresh)).about()).toMatchObject({ data: 'ingested', source: 'files: mead-metadata.csv, mead-2020.csv' });
    const copy = await tempDir();
    await mirror(copy, { baseUrl: small.server.url, apiKey: small.server.key });
    await ingest(copy, [textSource('revision.csv', csv)]);
    expect((await openStore(copy)).about().data).toBe('synthetic'); // a copy of synthetic data revised from files is still that copy
  });
});
