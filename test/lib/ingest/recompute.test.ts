// Recomputing a store's lem and nete-volume-calcs: a new snapshot through the ingest path, the old one still readable
// with asOf, only the names asked touched, each day's status Computed and its qflag the res day's, the provenance naming
// the model; a dry run writes nothing and counts what would change. A full recompute builds whole partitions as columns:
// the same stored answers as through Staging, the partitions outside the range untouched.
import { cp } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { Staging } from '../../../lib/ingest/stage.js';
import { openStore } from '../../../lib/open/store.js';
import { cleanUp, smallStoreRange, tempDir, writeSmallStore } from '../../helpers.js';

const lemAndNet = { datasets: ['lem', 'nete-volume-calcs'], ...smallStoreRange };

describe('recomputeModel', () => {
  it('writes the model as a new snapshot, touching only the names asked, the old snapshot kept', async () => {
    const dir = await tempDir();
    await writeSmallStore(dir);
    const store = await openStore(dir);
    cleanUp(() => store.close());
    const [first, ...others] = store.manifest.reservoirs.names;
    const before = await store.reservoirTimeseries({ names: store.manifest.reservoirs.names, ...lemAndNet });
    const snapshotsBefore = await store.listSnapshots();

    const dry = await store.recomputeModel({ names: [first!], dryRun: true });
    expect(dry.snapshot).toBeNull();
    expect(await store.listSnapshots()).toHaveLength(snapshotsBefore.length);
    expect(dry.values).toBe(12 * 10); // 12 days x the 10 variables of lem and nete-volume-calcs
    expect(dry.changed).toBeGreaterThan(0);

    const summary = await store.recomputeModel({ names: [first!] });
    expect(summary.snapshot).not.toBeNull();
    expect(summary.changed).toBe(dry.changed);
    expect(store.manifest.snapshot).toBe(summary.snapshot);
    expect(store.about().model).toMatch(/DLEM/);

    // the recomputed reservoir holds what the what-if baseline computes; the others are as they were
    const after = await store.reservoirTimeseries({ names: store.manifest.reservoirs.names, ...lemAndNet, alsoReturn: ['status', 'qflag'] });
    const baseline = await store.reservoirModel({ names: [first!], ...smallStoreRange });
    const recomputed = after.filter((r) => r.RES_NAME === first);
    expect(recomputed.map(({ status, qflag, ...values }) => values)).toEqual(baseline);
    expect(new Set(recomputed.map((r) => r.status))).toEqual(new Set(['Computed']));
    const resFlags = await store.reservoirTimeseries({ names: [first!], datasets: ['res'], variables: ['depth_m'], ...smallStoreRange, alsoReturn: ['qflag'] });
    expect(recomputed.map((r) => r.qflag)).toEqual(resFlags.map((r) => r.qflag));
    const untouched = (records: typeof before) => records.filter((r) => others.includes(r.RES_NAME as string)).map(({ status, qflag, ...values }) => values);
    expect(untouched(after)).toEqual(untouched(before));

    // the snapshot before is still there, as it was
    const asOf = snapshotsBefore[snapshotsBefore.length - 1]!;
    const old = await store.reservoirTimeseries({ names: store.manifest.reservoirs.names, ...lemAndNet, asOf: asOf.time });
    expect(old).toEqual(before);

    // computing again changes nothing
    expect((await store.recomputeModel({ names: [first!], dryRun: true })).changed).toBe(0);
  });

  it('builds whole partitions as columns, answering as the Staging path does', async () => {
    // the whole store; 2021 alone (2020 outside); 2021 whole and 2020 cut (its days staged, 2021's as columns)
    for (const range of [{}, { start: '2021-01-01', end: '2021-01-05' }, { start: '2020-12-28', end: '2021-01-05' }]) {
      const cut = range.start === '2020-12-28';
      const dir = await tempDir();
      await writeSmallStore(dir);
      const copy = await tempDir();
      await cp(dir, copy, { recursive: true });
      const [columnar, staged] = [await openStore(dir), await openStore(copy)];
      cleanUp(() => Promise.all([columnar.close(), staged.close()]));
      const names = columnar.manifest.reservoirs.names;
      const filesOf = (store: typeof columnar, year: number) =>
        ['lem', 'nete-volume-calcs'].map((d) => store.manifest.datasets[d]!.partitions.find((p) => p.year === year)!.files.map((f) => f.path));
      const answers = (store: typeof columnar) => store.reservoirTimeseries({ names, ...lemAndNet, alsoReturn: ['status', 'qflag'] });
      const before = await answers(columnar);
      const files2020 = filesOf(columnar, 2020);

      const staging = vi.spyOn(Staging.prototype, 'reservoir');
      const summary = await columnar.recomputeModel(range);
      // a cut partition's days staged (only 2020's: 18628 is 2021-01-01), every other day as columns
      expect(staging.mock.calls.length > 0).toBe(cut);
      expect(staging.mock.calls.every(([, day]) => day < 18628)).toBe(true);
      staging.mockClear();
      const reference = await staged.recomputeModel({ ...range, columnar: false });
      expect(staging).toHaveBeenCalled();
      staging.mockRestore();
      expect({ ...summary, snapshot: null }).toEqual({ ...reference, snapshot: null });
      expect(summary.changed).toBeGreaterThan(0);
      expect(await answers(columnar)).toEqual(await answers(staged));
      // 2021 lies inside both ranges: its files all replaced by the new snapshot's
      expect(
        filesOf(columnar, 2021)
          .flat()
          .every((path) => path.includes(summary.snapshot!)),
      ).toBe(true);
      if (range.start === '2021-01-01') {
        // 2020 lies outside: its files and answers as they were
        expect(filesOf(columnar, 2020)).toEqual(files2020);
        const in2020 = (records: typeof before) => records.filter((r) => String(r.date) < '2021-01-01');
        expect(in2020(await answers(columnar))).toEqual(in2020(before));
      }
      expect((await columnar.recomputeModel({ ...range, dryRun: true })).changed).toBe(0);
    }
  });
});
