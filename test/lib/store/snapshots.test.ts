// The retained history of a real store of three snapshots, against the snapshot files read as plain JSON, the data
// files on disk (named by the writer that wrote them) and DuckDB's count of their rows; as_of times against the instants
// they were written from, and their validity against date-fns.

import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { isValid, parseISO } from 'date-fns';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidParameterError } from '../../../lib/errors.js';
import { openStore } from '../../../lib/open/store.js';
import { openStorage } from '../../../lib/store/location.js';
import type { Manifest } from '../../../lib/store/manifest.js';
import { describeSnapshots, parseAsOf, readSnapshots, snapshotAt } from '../../../lib/store/snapshots.js';
import { vacuumStore } from '../../../lib/writer/vacuum.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { day, daysFrom, tempDir, writeTinyStore } from '../../helpers.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let dir: string;
let history: Manifest[];

beforeAll(async () => {
  dir = await tempDir();
  await writeTinyStore(dir); // 1: metadata, two nete-volume-calcs years, one station
  await pause(5);
  let store = await openStore(dir);
  let writer = createStoreWriter(dir, { base: store.manifest }); // 2: 2021 rewritten
  await writer.writeReservoirPartition('nete-volume-calcs', 2021, {
    names: ['ALPHA LAKE'],
    days: Int32Array.of(day('2021-01-01')),
    values: { NetE: Float64Array.of(9) },
  });
  await writer.commit();
  await pause(5);
  await store.refresh();
  writer = createStoreWriter(dir, { base: store.manifest }); // 3: a new dataset and the station rewritten
  await writer.writeReservoirPartition('lem', 2020, {
    names: ['ALPHA LAKE', 'BETA RESERVOIR'],
    days: Int32Array.of(day('2020-12-31'), day('2020-12-31')),
    values: { Tw: Float64Array.of(4, 5) },
  });
  await writer.writeStationPartition('ALPHA_STATION', { days: daysFrom('2020-12-30', 2), values: { ATemp: Float64Array.of(7, 8) } });
  await writer.commit();
  await store.close();
  store = await openStore(dir);
  history = await readSnapshots(store.storage);
  await store.close();
});

// The snapshot files as plain JSON, and the store-relative paths of the files each names.
async function snapshotFiles(): Promise<{ sequence: number; snapshot: string; created: string; text: string }[]> {
  const names = (await readdir(join(dir, 'snapshots'))).filter((n) => n.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (n) => ({ ...JSON.parse(await readFile(join(dir, 'snapshots', n), 'utf8')), text: await readFile(join(dir, 'snapshots', n), 'utf8') })),
  );
}
const pathsIn = (text: string) => new Set([...text.matchAll(/"path":"([^"]+\.parquet)"/g)].map((m) => m[1]!).filter((p) => !p.includes('/by-date/'))); // the rows' files: not their indexes nor the date-major copies

// the tiny store, then a second snapshot rewriting its station
async function storeOfTwoSnapshots(): Promise<string> {
  const copy = await tempDir();
  await writeTinyStore(copy);
  const store = await openStore(copy);
  const writer = createStoreWriter(copy, { base: store.manifest });
  await writer.writeStationPartition('ALPHA_STATION', { days: daysFrom('2020-12-30', 1), values: { ATemp: Float64Array.of(1) } });
  await writer.commit();
  await store.close();
  return copy;
}

describe('readSnapshots', () => {
  it('gives every published snapshot, oldest first, as its file says', async () => {
    const files = await snapshotFiles();
    expect(history.map((m) => [m.sequence, m.snapshot, m.created])).toEqual(files.map((f) => [f.sequence, f.snapshot, f.created]));
    expect(history.map((m) => m.sequence)).toEqual([1, 2, 3]);
  });

  it('skips a snapshot vacuum retired, and refuses a folder without a store', async () => {
    const copy = await storeOfTwoSnapshots();
    await rm(join(copy, 'snapshots', (await readdir(join(copy, 'snapshots'))).sort()[0]!));
    expect((await readSnapshots(openStorage(copy))).map((m) => m.sequence)).toEqual([2]);
    await expect(readSnapshots(openStorage(await tempDir()))).rejects.toThrow(/manifest.json is missing/);
  });

  it('leaves out and names a file of snapshots/ that is no snapshot; a vacuum keeps it; a damaged snapshot is named', async () => {
    const copy = await storeOfTwoSnapshots();
    const foreign = ['snapshots/backup.json', 'snapshots/0000000001 copy.json', 'snapshots/notes.txt'];
    for (const path of foreign) await writeFile(join(copy, path), '{"not": "a snapshot"}');
    const named: string[] = [];
    expect((await readSnapshots(openStorage(copy), (path) => named.push(path))).map((m) => m.sequence)).toEqual([1, 2]);
    expect(named.sort()).toEqual(foreign.filter((p) => p.endsWith('.json')).sort());
    const reopened = await openStore(copy);
    expect((await reopened.listSnapshots()).map((s) => s.id)).toEqual([1, 2]);
    await (await reopened.asOf(new Date().toISOString())).close();
    await reopened.close();
    const summary = await vacuumStore(copy, { minAgeMs: 0 });
    expect(summary.removed).toEqual(expect.arrayContaining(['snapshots/0000000001.json']));
    expect(summary.removed.filter((p) => foreign.includes(p))).toEqual([]);
    expect(summary.foreign.sort()).toEqual(foreign.filter((p) => p.endsWith('.json')).sort());
    for (const path of foreign) expect(await readFile(join(copy, path), 'utf8')).toBe('{"not": "a snapshot"}');
    await writeFile(join(copy, 'snapshots', '0000000001.json'), 'torn');
    await expect(readSnapshots(openStorage(copy))).rejects.toThrow(/^snapshots\/0000000001\.json is not a readable snapshot/);
  });
});

describe('describeSnapshots', () => {
  it('counts the files each snapshot wrote (named by its writer), their rows as DuckDB counts them, and the files it dropped', async () => {
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const onDisk = (await readdir(dir, { recursive: true })).filter((p) => p.endsWith('.parquet') && !p.includes('by-date/'));
    const files = await snapshotFiles();
    const expected = [];
    for (const [k, f] of files.entries()) {
      const written = onDisk.filter((p) => p.includes(f.snapshot));
      const rows =
        written.length === 0
          ? 0
          : Number(
              (
                await duck.runAndReadAll(`select sum(num_rows)::int as n from parquet_file_metadata([${written.map((p) => `'${join(dir, p)}'`).join(', ')}])`)
              ).getRowObjects()[0]!.n,
            );
      const before = k === 0 ? new Set<string>() : pathsIn(files[k - 1]!.text);
      const now = pathsIn(f.text);
      expect(written.every((p) => now.has(p))).toBe(true);
      expect(written.length).toBeGreaterThan(0);
      expected.push({
        id: f.sequence,
        snapshot: f.snapshot,
        time: f.created,
        files: written.length,
        rows,
        removed: [...before].filter((p) => !now.has(p)).length,
      });
    }
    duck.closeSync();
    expect(describeSnapshots(history)).toEqual(expected);
    expect(expected.map((e) => e.removed)).toEqual([0, 1, 1]); // the 2021 file, then the station's
  });
});

describe('parseAsOf', () => {
  it('reads a date as the end of that day UTC and a time as UTC unless it names an offset, whatever the zone of the machine', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/Denver'; // a local time would be 6 or 7 hours off
    try {
      const stamp = fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-12-31T23:59:59Z'), noInvalidDate: true });
      fc.assert(
        fc.property(stamp, fc.constantFrom('date', 'minutes', 'seconds', 'millis', 'zulu', 'offset'), fc.integer({ min: -14, max: 14 }), (at, form, hours) => {
          const iso = at.toISOString();
          const t = at.getTime();
          const floor = (ms: number) => Math.floor(t / ms) * ms;
          const offsetMs = Math.sign(hours || 1) * (Math.abs(hours) * 60 + 30) * 60_000;
          const offset = `${hours < 0 ? '-' : '+'}${String(Math.abs(hours)).padStart(2, '0')}:30`;
          // the instant each form names, by arithmetic on the instant it was written from
          const cases = {
            date: [iso.slice(0, 10), floor(864e5) + 864e5 - 1],
            minutes: [iso.slice(0, 16), floor(60_000)],
            seconds: [iso.slice(0, 19), floor(1000)],
            millis: [iso.slice(0, 23), t],
            zulu: [iso, t],
            offset: [`${iso.slice(0, 19)}${offset}`, floor(1000) - offsetMs], // the same wall clock, that far east of UTC
          } as const;
          const [text, expected] = cases[form];
          return parseAsOf(text) === expected;
        }),
      );
    } finally {
      process.env.TZ = zone;
    }
    expect(parseAsOf('2021-03-04T05:06+02:00')).toBe(parseISO('2021-03-04T03:06:00Z').getTime()); // date-fns agrees
  });

  it('refuses what is not a real date, or not ISO', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1900, max: 2100 }),
        fc.integer({ min: 1, max: 13 }),
        fc.oneof(fc.integer({ min: 1, max: 32 }), fc.integer({ min: 28, max: 32 })),
        (y, m, d) => {
          const text = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          let refused = false;
          try {
            parseAsOf(text);
          } catch (error) {
            refused = error instanceof InvalidParameterError && error.parameter === 'as_of';
          }
          return refused === !isValid(parseISO(text));
        },
      ),
      { numRuns: 500 },
    );
    for (const text of ['yesterday', '2021-1-5', '20210105', '2021-01-05 10:00', '2021-01-05T25:00Z', ''])
      expect(() => parseAsOf(text), text).toThrow(InvalidParameterError);
  });
});

describe('snapshotAt', () => {
  it('gives the last snapshot published at or before the time, refusing a time before the oldest', () => {
    const created = history.map((m) => Date.parse(m.created));
    fc.assert(
      fc.property(fc.integer({ min: created[0]! - 50, max: created[2]! + 50 }), (time) => {
        const text = new Date(time).toISOString();
        let expected: number | undefined;
        for (const [k, c] of created.entries()) if (c <= time) expected = history[k]!.sequence;
        if (expected !== undefined) return snapshotAt(history, text).sequence === expected;
        expect(() => snapshotAt(history, text)).toThrow(/older than the retained history: the oldest snapshot is 1/);
        return true;
      }),
      { numRuns: 300 },
    );
    expect(snapshotAt(history, history[1]!.created).sequence).toBe(2);
  });

  it('answers from a retained snapshot only when it was the one current, refusing a time in a vacuum gap', () => {
    // a history of consecutive snapshots at increasing times; a vacuum keeps the current one and any others
    const published = fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 12 }).map((gaps) => {
      let time = Date.parse('2025-01-01T00:00:00Z');
      return gaps.map((gap, i) => ({ sequence: i + 1, created: new Date((time += gap)).toISOString() }) as Manifest);
    });
    fc.assert(
      fc.property(published, fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), fc.integer({ min: 0, max: 13_000 }), (all, keep, offset) => {
        const retained = all.filter((_, i) => keep[i] || i === all.length - 1);
        const time = Date.parse(all[0]!.created) - 1000 + offset;
        let current: Manifest | undefined; // the oracle: the last published at or before the time, in the whole history
        for (const m of all) if (Date.parse(m.created) <= time) current = m;
        const text = new Date(time).toISOString();
        if (!current || !retained.includes(current)) expect(() => snapshotAt(retained, text)).toThrow(InvalidParameterError);
        // when the one after it was retired too, its time is unknown, so the answer may be refused, but never another's
        else if (retained.includes(all[current.sequence]!) || current === all.at(-1)) expect(snapshotAt(retained, text)).toBe(current);
        else expect(() => snapshotAt(retained, text)).toThrow(/were retired by a vacuum/);
      }),
      { numRuns: 1000 },
    );
  });
});
