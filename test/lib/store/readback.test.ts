// Reading back what a writer builds on: rows as the writer took them, metadata rows, and a lease that vacuum honours.
import { describe, expect, it } from 'vitest';
import { openStorage } from '../../../lib/store/location.js';
import { openReadback, readMetadataRows, readReservoirFiles, readReservoirPartition, readStationPartition } from '../../../lib/store/readback.js';
import { vacuumStore } from '../../../lib/store/vacuum.js';
import { createStoreWriter } from '../../../lib/store/write.js';
import { day, tempDir, tinyReservoirs, tinyStations, writeTinyStore } from '../../helpers.js';

describe('openReadback', () => {
  it('finds no snapshot in a folder without a store', async () => {
    expect(await openReadback(openStorage(await tempDir()))).toBeUndefined();
  });

  it('keeps the files of the snapshot it reads from vacuum until it is closed', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const base = (await openReadback(openStorage(dir)))!;
    const replaced = base.manifest.stations.partitions.ALPHA_STATION!.path;
    const writer = createStoreWriter(dir, { base: base.manifest });
    await writer.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(9) } });
    await writer.commit();
    expect((await vacuumStore(dir, { minAgeMs: 0 })).removed).not.toContain(replaced);
    expect([...(await readStationPartition(base, 'ALPHA_STATION'))!.values.ATemp!]).toEqual([0, 1, 2, 3]);
    await base.close();
    expect((await vacuumStore(dir, { minAgeMs: 0 })).removed).toContain(replaced);
  });
});

describe('readReservoirPartition', () => {
  it('gives back the rows the writer took, sorted by name then date, gaps included', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const base = (await openReadback(openStorage(dir)))!;
    const rows = await readReservoirPartition(base, 'nete-volume-calcs', 2021);
    expect(rows?.names).toEqual(['ALPHA LAKE', 'ALPHA LAKE', 'BETA RESERVOIR', 'BETA RESERVOIR']);
    expect([...rows!.days]).toEqual([day('2021-01-01'), day('2021-01-02'), day('2021-01-01'), day('2021-01-02')]);
    expect([...rows!.values.NetE!]).toEqual([1.2, 1.3, NaN, 2.3]);
    expect(await readReservoirPartition(base, 'nete-volume-calcs', 1999)).toBeUndefined();
    expect(await readStationPartition(base, 'NO_STATION')).toBeUndefined();
    await base.close();
  });

  it('joins files of one dataset-year split by name into one sorted set of rows', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const first = (await openReadback(openStorage(dir)))!;
    const writer = createStoreWriter(dir, { base: first.manifest, rowsPerFile: 2 }); // one name per file
    await first.close();
    const names = ['ALPHA LAKE', 'ALPHA LAKE', 'BETA RESERVOIR', 'BETA RESERVOIR'];
    const days = Int32Array.from([0, 1, 0, 1], (i) => day('2021-01-01') + i);
    await writer.writeReservoirPartition('nete-volume-calcs', 2021, { names, days, values: { NetE: Float64Array.of(1, 2, 3, 4) } });
    await writer.commit();
    const base = (await openReadback(openStorage(dir)))!;
    const files = base.manifest.datasets['nete-volume-calcs']!.partitions.find((p) => p.year === 2021)!.files;
    expect(files).toHaveLength(2);
    const rows = await readReservoirFiles(base, 'nete-volume-calcs', [...files].reverse());
    expect(rows.names).toEqual(names);
    expect([...rows.days]).toEqual([...days]);
    expect([...rows.values.NetE!]).toEqual([1, 2, 3, 4]);
    await base.close();
  });
});

describe('readMetadataRows', () => {
  it('gives back the metadata rows the writer took', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const base = (await openReadback(openStorage(dir)))!;
    expect(await readMetadataRows(base, 'reservoirs')).toEqual(tinyReservoirs);
    expect(await readMetadataRows(base, 'stations')).toEqual(tinyStations);
    await base.close();
  });
});
