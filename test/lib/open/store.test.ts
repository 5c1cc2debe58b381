import { execFile } from 'node:child_process';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidParameterError, NotFoundError, StoreError } from '../../../lib/errors.js';
import { openStore } from '../../../lib/open/store.js';
import { parseFileIndex } from '../../../lib/store/file-index.js';
import { HeldLease } from '../../../lib/store/lease.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import type { WireRecord } from '../../../lib/types.js';
import { vacuumStore } from '../../../lib/writer/vacuum.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { day, tempDir, tinyStations, writeTinyStore } from '../../helpers.js';
import { entryModule } from '../../support/node-entry.js';

describe('openStore', () => {
  it('reads back exactly what the writer wrote, across row groups and partitions', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const store = await openStore(dir);
    const rows = await store.reservoirTimeseries({
      names: ['BETA RESERVOIR', 'ALPHA LAKE'],
      datasets: ['nete-volume-calcs'],
      variables: ['NetE', 'E_volume'],
      start: '2020-12-30',
      end: '2021-01-02',
    });
    expect(rows).toEqual([
      { RES_NAME: 'ALPHA LAKE', start_date: '2020-12-30', end_date: '2020-12-30', 'NetE (mm)': 1.0, 'E_volume (m3)': 1000 },
      { RES_NAME: 'ALPHA LAKE', start_date: '2020-12-31', end_date: '2020-12-31', 'NetE (mm)': 1.1, 'E_volume (m3)': 1100 },
      { RES_NAME: 'ALPHA LAKE', start_date: '2021-01-01', end_date: '2021-01-01', 'NetE (mm)': 1.2, 'E_volume (m3)': 1200 },
      { RES_NAME: 'ALPHA LAKE', start_date: '2021-01-02', end_date: '2021-01-02', 'NetE (mm)': 1.3, 'E_volume (m3)': 1300 },
      { RES_NAME: 'BETA RESERVOIR', start_date: '2020-12-30', end_date: '2020-12-30', 'NetE (mm)': 2.0, 'E_volume (m3)': 2000 },
      { RES_NAME: 'BETA RESERVOIR', start_date: '2020-12-31', end_date: '2020-12-31', 'NetE (mm)': 2.1, 'E_volume (m3)': 2100 },
      { RES_NAME: 'BETA RESERVOIR', start_date: '2021-01-01', end_date: '2021-01-01', 'NetE (mm)': null, 'E_volume (m3)': null },
      { RES_NAME: 'BETA RESERVOIR', start_date: '2021-01-02', end_date: '2021-01-02', 'NetE (mm)': 2.3, 'E_volume (m3)': 2300 },
    ]);
  });

  it('answers one date for every reservoir and station', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const store = await openStore(dir);
    expect(await store.reservoirTimeseriesOnDate({ datasets: ['nete-volume-calcs'], variables: ['NetE'], date: '2021-01-02' })).toEqual([
      { RES_NAME: 'ALPHA LAKE', start_date: '2021-01-02', end_date: '2021-01-02', 'NetE (mm)': 1.3 },
      { RES_NAME: 'BETA RESERVOIR', start_date: '2021-01-02', end_date: '2021-01-02', 'NetE (mm)': 2.3 },
    ]);
    expect(await store.stationTimeseriesOnDate({ date: '2020-12-31', alsoReturn: ['RES_NAME'] })).toEqual([
      { STA_NAME: 'ALPHA_STATION', start_date: '2020-12-31', end_date: '2020-12-31', 'ATemp (degC)': 1, RES_NAME: 'ALPHA LAKE' },
    ]);
    expect(await store.reservoirTimeseriesOnDate({ datasets: ['nete-volume-calcs'], date: '1999-01-01' })).toEqual([]);
  });

  it('carries over untouched partitions when a new snapshot replaces one', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const before = await openStore(dir);
    const writer = createStoreWriter(dir, { base: before.manifest });
    await writer.writeReservoirPartition('nete-volume-calcs', 2021, {
      names: ['ALPHA LAKE'],
      days: Int32Array.of(day('2021-01-01')),
      values: { NetE: Float64Array.of(9) },
    });
    await writer.commit();
    const oldRows = await before.reservoirTimeseries({
      names: ['ALPHA LAKE'],
      datasets: ['nete-volume-calcs'],
      variables: ['NetE'],
      start: '2021-01-01',
      end: '2021-01-01',
    });
    expect(oldRows[0]!['NetE (mm)']).toBe(1.2); // a reader keeps its snapshot until it refreshes
    expect(await before.refresh()).toBe(true);
    const rows = await before.reservoirTimeseries({
      names: ['ALPHA LAKE', 'BETA RESERVOIR'],
      datasets: ['nete-volume-calcs'],
      variables: ['NetE'],
      start: '2020-12-31',
      end: '2021-01-02',
    });
    expect(rows.map((r) => [r.RES_NAME, r.start_date, r['NetE (mm)']])).toEqual([
      ['ALPHA LAKE', '2020-12-31', 1.1],
      ['ALPHA LAKE', '2021-01-01', 9],
      ['BETA RESERVOIR', '2020-12-31', 2.1],
    ]);
  });

  it('detects a corrupted partition by its checksum instead of serving it', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const store = await openStore(dir);
    const file = store.manifest.datasets['nete-volume-calcs']!.partitions[0]!.files[0]!;
    const path = join(dir, file.path);
    const bytes = await readFile(path);
    // in the date chunk of the first row group, which the query reads (the footer is not read: the file's index is)
    const layout = parseFileIndex(await readFile(join(dir, file.index!.path), 'utf8'), file);
    bytes[layout.ranges[0]![layout.columns.get('date')!]![0] + 2]! ^= 0xff;
    await writeFile(path, bytes);
    await expect(store.reservoirTimeseries({ names: ['ALPHA LAKE'], start: '2020-12-30', end: '2020-12-30' })).rejects.toThrow(/store file .* is corrupt/);
    await writeFile(path, bytes.subarray(0, 10));
    await expect(store.reservoirTimeseries({ names: ['ALPHA LAKE'], start: '2020-12-30', end: '2020-12-30' })).rejects.toThrow(StoreError);
  });

  it('checks a metadata table against its checksum when first used, not at open, and never serves it corrupt', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const entry = (await openStore(dir)).manifest.reservoirs.metadata!;
    const path = join(dir, entry.path);
    const bytes = await readFile(path);
    bytes[4]! ^= 0xff; // in the first column chunk: the file still decodes as Parquet
    await writeFile(path, bytes);
    const store = await openStore(dir); // a query that needs no metadata is answered
    expect(await store.reservoirTimeseries({ names: ['ALPHA LAKE'], start: '2021-01-01', end: '2021-01-01' })).toHaveLength(1);
    for (let again = 0; again < 2; again++) expect(() => store.reservoirMetadata(['ALPHA LAKE'])).toThrow(`store file ${entry.path} is corrupt`);
    expect(store.stationMetadata(['ALPHA_STATION'])).toHaveLength(1); // the stations' own file is sound
  });

  it('refuses, when read, a file whose checksum in the manifest is not lowercase hex (the manifest is checked by length)', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const text = await readFile(join(dir, 'manifest.json'), 'utf8');
    const manifest = JSON.parse(text) as { reservoirs: { namesFile: { sha256: string }; metadata: { sha256: string } } };
    const { namesFile, metadata } = manifest.reservoirs;
    await writeFile(join(dir, 'manifest.json'), text.replace(metadata.sha256, metadata.sha256.toUpperCase()));
    const store = await openStore(dir);
    expect(() => store.reservoirMetadata(['ALPHA LAKE'])).toThrow('is corrupt: checksum does not match the manifest');
    await store.close();
    await writeFile(join(dir, 'manifest.json'), text.replace(namesFile.sha256, `${namesFile.sha256.slice(0, 63)}g`));
    await expect(openStore(dir)).rejects.toThrow('is corrupt: checksum does not match the manifest');
  });

  it('throws typed errors naming the bad value', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const store = await openStore(dir);
    await expect(store.reservoirTimeseries({ names: ['NOWHERE LAKE'] })).rejects.toThrow(NotFoundError);
    await expect(store.reservoirTimeseries({ names: ['ALPHA LAKE'], datasets: ['bogus'] })).rejects.toThrow(/unknown dataset "bogus"/);
    await expect(store.reservoirTimeseries({ names: ['ALPHA LAKE'], datasets: ['rtma'], variables: ['NetE'] })).rejects.toThrow(
      /NetE belongs to dataset nete-volume-calcs/,
    );
    await expect(store.reservoirTimeseries({ names: ['ALPHA LAKE'], start: '2021-02-30' })).rejects.toThrow(/2021-02-30 does not exist/);
    await expect(store.reservoirTimeseries({ names: ['ALPHA LAKE'], start: '2021-02-03', end: '2021-02-01' })).rejects.toThrow(
      /end 2021-02-01 is before start 2021-02-03/,
    );
    await expect(store.reservoirTimeseries({ names: ['ALPHA LAKE'], units: 'imperial' as never })).rejects.toThrow(InvalidParameterError);
    await expect(store.reservoirTimeseries({ names: ['ALPHA LAKE'], alsoReturn: ['colour'] })).rejects.toThrow(/unknown metadata attribute "colour"/);
  });

  it('refuses to open a folder without a manifest', async () => {
    await expect(openStore(await tempDir())).rejects.toThrow(/manifest.json is missing/);
  });
});

describe('EvapStore.readReservoirPartition', () => {
  it('gives back the rows the writer took, gaps included', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const store = await openStore(dir);
    const rows = await store.readReservoirPartition('nete-volume-calcs', 2021);
    expect(rows?.names).toEqual(['ALPHA LAKE', 'ALPHA LAKE', 'BETA RESERVOIR', 'BETA RESERVOIR']);
    expect([...rows!.days]).toEqual([day('2021-01-01'), day('2021-01-02'), day('2021-01-01'), day('2021-01-02')]);
    expect([...rows!.values.NetE!]).toEqual([1.2, 1.3, NaN, 2.3]);
    expect(await store.readReservoirPartition('nete-volume-calcs', 1999)).toBeUndefined();
    const station = await store.readStationPartition('ALPHA_STATION');
    expect([...station!.values.ATemp!]).toEqual([0, 1, 2, 3]);
  });
});

describe('record building', () => {
  it('keeps hostile names and attribute names as plain data', async () => {
    const dir = await tempDir();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a name that looks like a template must stay plain text
    const odd = 'QUOTE"S\n`${process.exit()}`';
    const proto = JSON.parse(`{"RES_NAME":"X","__proto__":"p"}`); // an own __proto__ key, as JSON.parse makes
    await expect(createStoreWriter(dir).writeReservoirMetadata([proto])).rejects.toThrow(/may not be named __proto__/);
    const writer = createStoreWriter(dir, { rowGroupSize: 4 });
    await writer.writeReservoirMetadata([{ RES_NAME: odd, LAT: 1, LON: 2, 'a"b': 'q', constructor: 'c' }]);
    await writer.writeStationMetadata([]);
    await writer.writeReservoirPartition('res', 2020, { names: [odd], days: Int32Array.of(day('2020-05-01')), values: { depth_m: Float64Array.of(3) } });
    await writer.commit();
    const store = await openStore(dir);
    const [record] = await store.reservoirTimeseries({
      names: [odd],
      datasets: ['res'],
      variables: ['depth_m'],
      start: '2020-05-01',
      end: '2020-05-01',
      alsoReturn: ['a"b', 'constructor'],
    });
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(JSON.stringify(record)).toBe(
      `{"RES_NAME":${JSON.stringify(odd)},"start_date":"2020-05-01","end_date":"2020-05-01","depth_m (m)":3,"a\\"b":"q","constructor":"c"}`,
    );
  });
});

describe('station queries', () => {
  it('return exactly the stored days within any range, and on any date', async () => {
    const dir = await tempDir();
    const kept = Array.from({ length: 120 }, (_, i) => i).filter((i) => i % 7 !== 3 && i % 11 !== 5); // days with gaps
    const writer = createStoreWriter(dir, { rowGroupSize: 8 });
    await writer.writeReservoirMetadata([]);
    await writer.writeStationMetadata(tinyStations);
    await writer.writeStationPartition('ALPHA_STATION', {
      days: Int32Array.from(kept, (i) => day('2020-01-01') + i),
      values: { ATemp: Float64Array.from(kept) },
    });
    await writer.commit();
    const store = await openStore(dir);
    const date = (i: number) => new Date((day('2020-01-01') + i) * 864e5).toISOString().slice(0, 10);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -5, max: 125 }), fc.integer({ min: 0, max: 40 }), async (from, length) => {
        const rows = await store.stationTimeseries({ names: ['ALPHA_STATION'], start: date(from), end: date(from + length) });
        const expected = kept.filter((i) => i >= from && i <= from + length);
        const onDate = await store.stationTimeseriesOnDate({ date: date(from) });
        return JSON.stringify(rows.map((r) => r['ATemp (degC)'])) === JSON.stringify(expected) && onDate.length === (kept.includes(from) ? 1 : 0);
      }),
      { numRuns: 150 },
    );
  });
});

describe('openStore({ codegen: false })', () => {
  it('answers every query kind with the same text as generated emitters', async () => {
    const generated = await openStore();
    const interpreted = await openStore(undefined, { codegen: false });
    const query = {
      names: ['LAKE MEAD', 'LAKE POWELL'],
      variables: ['NetE', 'E_volume', 'pr', 'th'],
      start: '2020-02-27',
      end: '2020-03-02',
      units: 'english' as const,
      alsoReturn: ['qflag'],
    };
    const text = async (s: typeof generated) => {
      let out = '';
      for await (const chunk of s.streamReservoirTimeseries(query).csv()) out += chunk;
      for await (const chunk of s.streamStationTimeseriesOnDate({ date: '2020-07-01' }).json()) out += chunk;
      return out + JSON.stringify(await s.reservoirTimeseriesOnDate({ date: '2020-07-01', alsoReturn: ['STATE'] }));
    };
    expect(await text(interpreted)).toBe(await text(generated));
  });

  it('answers in a process where generating code from strings is forbidden, which generated emitters cannot', async () => {
    const entry = entryModule('lib/index.ts'); // the package's entry: nothing it loads may compile code from strings
    const store = pathToFileURL(entry.path).href;
    const query = { names: ['LAKE MEAD'], start: '2020-01-01', end: '2020-01-02', units: 'english' as const };
    const script = (codegen: boolean) =>
      `const { openStore } = await import(${JSON.stringify(store)}); const s = await openStore(undefined, { codegen: ${codegen} }); process.stdout.write(JSON.stringify(await s.reservoirTimeseries(${JSON.stringify(query)})));`;
    // node's own switch for what a content security policy forbids: eval and new Function throw an EvalError
    const run = (codegen: boolean) =>
      promisify(execFile)(process.execPath, ['--disallow-code-generation-from-strings', ...entry.nodeArgs, '--input-type=module', '-e', script(codegen)]);
    const expected = JSON.stringify(await (await openStore()).reservoirTimeseries(query));
    expect((await run(false)).stdout).toBe(expected);
    await expect(run(true)).rejects.toThrow(/EvalError/);
  });
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('an answer streaming across a refresh', () => {
  it('keeps its snapshot leased, so a vacuum leaves its files, until it ends; then the vacuum takes them', async () => {
    const dir = await tempDir();
    const range = { start: '2020-12-25', end: '2021-01-05' };
    await generateStore(dir, { reservoirs: 4, stations: 2, ...range, seed: 7 });
    // no cache: every batch reads its files again, as a large answer whose chunks were evicted would
    const store = await openStore(dir, { cacheBytes: 0, footerCacheBytes: 0 });
    const names = store.manifest.reservoirs.names;
    const expected = await store.reservoirTimeseries({ names, ...range });
    const old = store.manifest;
    const batches = store.streamReservoirTimeseries({ names, ...range }).batches[Symbol.asyncIterator]();
    const got = [...((await batches.next()).value as WireRecord[])];

    await generateStore(dir, { reservoirs: 4, stations: 2, ...range, seed: 8 }); // every file replaced
    expect(await store.refresh()).toBe(true);
    await vacuumStore(dir, { minAgeMs: 0 });
    const oldFiles = old.datasets['nete-volume-calcs']!.partitions.flatMap((p) => p.files.map((f) => f.path));
    expect(await Promise.all(oldFiles.map((f) => exists(join(dir, f))))).toEqual(oldFiles.map(() => true));

    for (let next = await batches.next(); !next.done; next = await batches.next()) got.push(...(next.value as WireRecord[]));
    expect(got).toEqual(expected);
    await vacuumStore(dir, { minAgeMs: 0 });
    expect(await Promise.all(oldFiles.map((f) => exists(join(dir, f))))).toEqual(oldFiles.map(() => false));
    await store.close();
  });
});

describe('HeldLease', () => {
  it('is given back once, when retired and the last read has ended, whatever the order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('enter', 'leave', 'retire'), { maxLength: 30 }), (steps) => {
        let released = 0;
        const lease = new HeldLease(async () => void released++);
        const open: (() => void)[] = [];
        let retired = false;
        let given = false;
        for (const step of steps) {
          if (step === 'enter') open.push(lease.enter());
          else if (step === 'leave') open.shift()?.();
          else {
            void lease.retire();
            retired = true;
          }
          // a plain model: given back once retired with no read open, and never before
          given ||= retired && open.length === 0;
          expect(released).toBe(given ? 1 : 0);
        }
      }),
    );
  });
});
