// A store's provenance: written by the generator, carried by every later snapshot and by a mirror, checked on read.
import { describe, expect, it } from 'vitest';
import { mirrorAbout, OPEREVAP_URL, syntheticAbout } from '../../../lib/store/about.js';
import { parseManifest } from '../../../lib/store/manifest.js';
import { openStore } from '../../../lib/store/store.js';
import { createStoreWriter } from '../../../lib/store/write.js';
import { mirror } from '../../../lib/sync/mirror.js';
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
