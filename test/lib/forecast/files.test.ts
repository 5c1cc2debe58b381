// The forecasts in the store: written in a snapshot, read back by the library as they were made, read by ClickHouse
// (chdb, Iceberg) as the library reads them; a revised issue is a new snapshot, and the old one stays readable (as_of).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { issuesOf, readIssue } from '../../../lib/forecast/files.js';
import { forecastFromMembers, type Issue } from '../../../lib/forecast/issue.js';
import { writeForecastIssues } from '../../../lib/forecast/write.js';
import { openStore } from '../../../lib/open/store.js';
import { verifyStore } from '../../../lib/open/verify.js';
import { manifestFiles } from '../../../lib/store/manifest.js';
import { createReaderCaches, PartitionReader } from '../../../lib/store/partitions.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { FORECAST_TABLE, FORECAST_TOTALS_TABLE } from '../../../lib/tables/fields.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { clickhouseRows, libraryTables, workDir } from '../tables/engine.js';

describe('forecast files', () => {
  it('read back equal to what was written, by the library and by ClickHouse, before and after a revision', async () => {
    const dir = await workDir();
    await generateStore(dir, {
      reservoirs: 3,
      stations: 0,
      start: '2021-01-01',
      end: '2021-02-10',
      seed: 7,
      forecasts: { firstIssue: '2021-01-30', lastIssue: '2021-02-02', members: 5, keepMembers: 2 },
    });
    const store = await openStore(dir);
    const months = store.manifest.forecasts!;
    expect(months.map((m) => m.month)).toEqual(['2021-01', '2021-01', '2021-02', '2021-02']); // a file set per issue
    expect(months.flatMap((m) => m.issues.map((i) => [i.issued, i.members]))).toEqual([
      ['2021-01-30', 0],
      ['2021-01-31', 0],
      ['2021-02-01', 5],
      ['2021-02-02', 5],
    ]);
    expect(months[0]!.members).toBeNull(); // no member kept in January: no members file
    expect(months.every((m) => m.totals !== undefined)).toBe(true);
    // every file written under forecasts/ is one the snapshot names (an index beside each was written and named by none)
    const named = new Set(manifestFiles(store.manifest).map((f) => f.path));
    const written = (await readdir(join(dir, 'forecasts'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    expect(written.map((e) => relative(dir, join(e.parentPath, e.name))).filter((path) => !named.has(path))).toEqual([]);
    const library = await libraryTables(store);
    expect(library.get(FORECAST_TABLE)!.length).toBe(3 * 28 * (8 * 4 + 5 * 2));
    expect(clickhouseRows(dir, FORECAST_TABLE)).toEqual(library.get(FORECAST_TABLE));
    expect(library.get(FORECAST_TOTALS_TABLE)!.length).toBe(3 * 4 * 4 * 8); // reservoirs, issues, windows, statistics
    expect(clickhouseRows(dir, FORECAST_TOTALS_TABLE)).toEqual(library.get(FORECAST_TOTALS_TABLE));

    // a revision: February's first issue replaced by another ensemble, its members no longer kept
    const before = await readIssue(new PartitionReader(store.storage, createReaderCaches(0, 0)), months[2]!, months[2]!.issues[0]!, true);
    const writer = createStoreWriter(dir, { base: store.manifest });
    const revised: Issue = { issued: before.issued, byName: new Map() };
    for (const [name, f] of before.byName) {
      const members = Object.fromEntries(Object.entries(f.members!).map(([v, a]) => [v, a.map((x) => x + 1)])) as typeof f.members & object;
      revised.byName.set(name, forecastFromMembers(members, f.count, false));
    }
    await writeForecastIssues(writer, months, [revised]);
    const published = await writer.commit();
    await store.refresh();
    const after = issuesOf(store.manifest).find((i) => i.issue.issued === '2021-02-01')!;
    expect(after.issue.members).toBe(0);
    const reread = await readIssue(new PartitionReader(store.storage, createReaderCaches(0, 0)), after.month, after.issue, true);
    const name = [...before.byName.keys()][0]!;
    expect(reread.byName.get(name)!.stats.E_hs[0]).toBeCloseTo(before.byName.get(name)!.stats.E_hs[0]! + 1, 3);
    const revisedTables = await libraryTables(store);
    expect(clickhouseRows(dir, FORECAST_TABLE)).toEqual(revisedTables.get(FORECAST_TABLE));
    expect(clickhouseRows(dir, FORECAST_TOTALS_TABLE)).toEqual(revisedTables.get(FORECAST_TOTALS_TABLE));
    // the snapshot before the revision, as the library and ClickHouse read it then
    const then = Date.parse(published.created) - 1;
    const view = await store.asOf(new Date(then).toISOString());
    const thenTables = await libraryTables(view);
    expect(clickhouseRows(dir, FORECAST_TABLE, then)).toEqual(thenTables.get(FORECAST_TABLE));
    expect(clickhouseRows(dir, FORECAST_TOTALS_TABLE, then)).toEqual(thenTables.get(FORECAST_TOTALS_TABLE));
    await view.close();
    // evap verify reads every forecast file whole against its SHA-256, and finds a changed byte
    expect((await verifyStore(store, store.storage)).problems).toEqual([]);
    const stats = join(dir, store.manifest.forecasts![1]!.stats.path);
    const bytes = await readFile(stats);
    bytes[100] = bytes[100]! ^ 1;
    await writeFile(stats, bytes);
    expect((await verifyStore(store, store.storage)).problems).toEqual([
      `store file ${store.manifest.forecasts![1]!.stats.path} is corrupt: checksum does not match the manifest`,
    ]);
    await store.close();
  }, 60_000);

  it("reads an issue's row groups alone, each chunk checked against the footer: a changed byte in them is refused", async () => {
    const dir = await workDir();
    await generateStore(dir, {
      reservoirs: 2,
      stations: 0,
      start: '2021-01-01',
      end: '2021-01-20',
      seed: 3,
      forecasts: { firstIssue: '2021-01-20', lastIssue: '2021-01-20', members: 4, keepMembers: 0 },
    });
    const { manifest } = await openStore(dir);
    const file = manifest.forecasts![0]!.stats;
    expect(file.footerSha256).toMatch(/^[0-9a-f]{64}$/); // kept, so the reader reads row groups, not the file
    // one issue: one row group, all of the file's data bytes; a byte in its middle changed before anything read it
    const path = join(dir, file.path);
    const bytes = await readFile(path);
    const middle = Math.floor((file.bytes - file.footerBytes!) / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    await writeFile(path, bytes);
    const store = await openStore(dir);
    await expect(store.forecastDaily({ names: manifest.reservoirs.names })).rejects.toThrow(/does not match its checksum/);
    await store.close();
  }, 60_000);
});
