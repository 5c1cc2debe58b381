// Recomputing a store's lem and nete-volume-calcs: a new snapshot through the ingest path, the old one still readable
// with asOf, only the names asked touched, each day's status Computed and its qflag the res day's, the provenance naming
// the model; a dry run writes nothing and counts what would change.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/store/store.js';
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
});
