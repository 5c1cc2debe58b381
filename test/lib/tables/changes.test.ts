// What changed since a snapshot, against an independent oracle: every row that differs between the library's reading
// of that snapshot and of the current one (added, dropped or changed) lies in a reported span, and the answer is made
// from the snapshots' manifests alone (no data file read).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { readCurrentManifest } from '../../../lib/store/history.js';
import { openStorage } from '../../../lib/store/location.js';
import { readSnapshots } from '../../../lib/store/snapshots.js';
import type { Storage } from '../../../lib/store/storage.js';
import { type ChangedSpan, diffSnapshots, snapshotSince } from '../../../lib/tables/changes.js';
import { vacuumStore } from '../../../lib/writer/vacuum.js';
import { tempDir, writeTinyStore } from '../../helpers.js';
import { libraryTables } from './engine.js';
import { revise, revision } from './revise.js';

type Row = Record<string, unknown>;

// the rows of one reading that the other lacks, by their whole content
function differing(a: Row[], b: Row[]): Row[] {
  const other = new Set(b.map((r) => JSON.stringify(r)));
  return a.filter((r) => !other.has(JSON.stringify(r)));
}

function covered(table: string, row: Row, spans: readonly ChangedSpan[]): boolean {
  const name = (row.RES_NAME ?? row.STA_NAME) as string | undefined;
  const date = row.date as string | undefined;
  return spans.some(
    (s) =>
      s.table === table &&
      (s.name === null || s.name === name) &&
      (date === undefined || s.start_date === null || (s.start_date <= date && date <= s.end_date!)),
  );
}

/** A storage that records every path read. */
function countingStorage(storage: Storage, paths: string[]): Storage {
  return new Proxy(storage, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if ((property === 'read' || property === 'readText') && typeof value === 'function') {
        return (path: string, ...rest: unknown[]) => {
          paths.push(path);
          return (value as (...a: unknown[]) => unknown).call(target, path, ...rest);
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('store.changes', () => {
  it('covers every row that differs since any retained snapshot, by id or by time, reading no data file', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(revision, { minLength: 1, maxLength: 4 }), async (revisions) => {
        const dir = await tempDir();
        await writeTinyStore(dir);
        for (const [i, r] of revisions.entries()) await revise(dir, r, i);
        const store = await openStore(dir);
        try {
          const now = await libraryTables(store);
          for (const m of await readSnapshots(openStorage(dir))) {
            const answer = await store.changes({ since: String(m.sequence) });
            expect([answer.since, answer.current]).toEqual([m.sequence, store.manifest.sequence]);
            const view = await store.asOf(m.created);
            const then = await libraryTables(view);
            await view.close();
            for (const [table, rows] of now) {
              for (const row of [...differing(rows, then.get(table)!), ...differing(then.get(table)!, rows)]) {
                expect(covered(table, row, answer.changes), `${table} ${JSON.stringify(row)} since ${m.sequence}`).toBe(true);
              }
            }
            expect((await store.changes({ since: m.created })).changes).toEqual(answer.changes);
            if (m.sequence === store.manifest.sequence) expect(answer.changes).toEqual([]);
          }
          const paths: string[] = [];
          const counted = countingStorage(openStorage(dir), paths);
          diffSnapshots(await snapshotSince(counted, '1', (await readCurrentManifest(counted))!), store.manifest);
          expect(paths.filter((p) => p.endsWith('.parquet'))).toEqual([]);
        } finally {
          await store.close();
        }
      }),
      { numRuns: 4 },
    );
  }, 300_000);

  it('reports a revised reservoir-year as its names and the days of the rewritten file, and nothing else', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    await revise(dir, { kind: 'values', dataset: 'nete-volume-calcs', year: 2020, edits: [{ row: 0, value: 9, flag: null }] }, 0);
    const store = await openStore(dir);
    const answer = await store.changes({ since: '1' });
    await store.close();
    expect(answer.changes).toEqual([
      { table: 'reservoir_nete_volume_calcs', name: 'ALPHA LAKE', start_date: '2020-12-30', end_date: '2020-12-31' },
      { table: 'reservoir_nete_volume_calcs', name: 'BETA RESERVOIR', start_date: '2020-12-30', end_date: '2020-12-31' },
    ]);
  });

  it('refuses a snapshot not yet published or no longer retained; left out, since is the oldest retained', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    await revise(dir, { kind: 'station', values: [1] }, 0);
    await revise(dir, { kind: 'station', values: [2] }, 1);
    const store = await openStore(dir);
    try {
      await expect(store.changes({ since: '7' })).rejects.toThrow(/after the current snapshot 3/);
      await expect(store.changes({ since: 'soon' })).rejects.toThrow(/^since must be/);
      expect(await store.changes({})).toEqual(await store.changes({ since: '1' }));
      await vacuumStore(dir, { minAgeMs: 0, retainMs: 0 });
      await expect(store.changes({ since: '1' })).rejects.toThrow(/no longer retained/);
    } finally {
      await store.close();
    }
  });
});
