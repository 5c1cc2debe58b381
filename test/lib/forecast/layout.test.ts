// The forecast files' layout: a file set per issue, row groups of a few reservoirs each, so a query of one reservoir
// decodes one small row group and only its variables' columns, and the totals of every reservoir read the issue's
// small totals table. Stores written the old ways (a month of issues per file, no totals table: with row groups of
// a few reservoirs; a row group per issue with the footer's checksum; or no footer checksum, read whole) must answer
// the same, so a copy of a new store is rewritten in each old layout and every forecast path is compared across the
// four over random questions.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeVector, Table, tableFromIPC, type Vector } from 'apache-arrow';
import fc from 'fast-check';
import * as wasm from 'parquet-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIssue } from '../../../lib/forecast/files.js';
import { ingestForecastValues, parseForecastAnswer } from '../../../lib/forecast/ingest.js';
import { TOTAL_WINDOWS } from '../../../lib/forecast/totals.js';
import { reservoirsPerGroup } from '../../../lib/forecast/write.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { verifyStore } from '../../../lib/open/verify.js';
import { sha256 } from '../../../lib/store/disk.js';
import type { ForecastFile, ForecastMonth, Manifest } from '../../../lib/store/manifest.js';
import { parseFooter } from '../../../lib/store/parquet.js';
import { encodeParquet } from '../../../lib/store/parquet-encode.js';
import { createReaderCaches, PartitionReader } from '../../../lib/store/partitions.js';
import type { ByteSource } from '../../../lib/store/source.js';
import { generateStore } from '../../../lib/synthetic/generate.js';

const RESERVOIRS = 30;
const ISSUES = ['2021-06-08', '2021-06-09', '2021-06-10'];
let dir: string;
let stores: { name: string; store: EvapStore }[] = [];

const readTable = async (path: string): Promise<Table> => tableFromIPC(wasm.readParquet(await readFile(path)).intoIPCStream());

// writes a table as the writer did (the footer's length and checksum kept, no index), in place of `entry`'s file
async function rewrite(root: string, entry: ForecastFile, table: Table, groupRows: number, kind: 'footer' | 'whole' = 'footer'): Promise<void> {
  const { bytes, footerLength } = encodeParquet(table, groupRows);
  expect(parseFooter(bytes.subarray(bytes.byteLength - footerLength)).groupStarts.length - 1).toBe(Math.ceil(table.numRows / groupRows));
  await writeFile(join(root, entry.path), bytes);
  Object.assign(entry, { rows: table.numRows, bytes: bytes.byteLength, sha256: sha256(bytes) });
  delete entry.index;
  if (kind === 'footer') Object.assign(entry, { footerBytes: footerLength, footerSha256: sha256(bytes.subarray(bytes.byteLength - footerLength)) });
  else {
    delete entry.footerBytes;
    delete entry.footerSha256;
  }
}

// rewrites the forecasts of a copied store as the writer did before a file set per issue: a month of issues per file
// (rows by issue, then as now), row groups of a few reservoirs, no totals table, no index
async function monthLayout(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true });
  const manifest = JSON.parse(await readFile(join(to, 'manifest.json'), 'utf8')) as Manifest;
  const months: ForecastMonth[] = [];
  for (const name of new Set(manifest.forecasts!.map((e) => e.month))) {
    const entries = manifest.forecasts!.filter((e) => e.month === name);
    const month: ForecastMonth = { month: name, stats: entries[0]!.stats, members: null, issues: [] };
    for (const kind of ['stats', 'members'] as const) {
      const tables: Table[] = [];
      let rows = 0;
      for (const entry of entries) {
        const file = entry[kind];
        const table = file ? await readTable(join(to, file.path)) : undefined;
        const range: [number, number] = table ? [rows, (rows += table.numRows)] : [0, 0];
        if (table) tables.push(table);
        if (kind === 'stats') month.issues.push({ ...entry.issues[0]!, rows: range });
        else month.issues[entries.indexOf(entry)]!.memberRows = range;
      }
      if (tables.length === 0) continue;
      const issued = entries.filter((e) => e[kind]).map((e) => e.issues[0]!.issued);
      const file: ForecastFile = { ...entries[0]!.stats, path: `forecasts/month=${name}/${kind}-old.parquet`, start: issued[0]!, end: issued.at(-1)! };
      await rewrite(to, file, tables[0]!.concat(...tables.slice(1)), reservoirsPerGroup([RESERVOIRS]) * (kind === 'stats' ? 8 : 4) * 28);
      month[kind] = file;
    }
    months.push(month);
  }
  manifest.forecasts = months;
  await writeFile(join(to, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
}

// rewrites every forecast file of a copied store of month files as the writer did before: a row group per issue
// (`footer`: with the footer's length and checksum in the manifest) or the file read whole (`whole`); no index, no
// issue reservoirs
async function oldLayout(from: string, to: string, kind: 'footer' | 'whole'): Promise<void> {
  await cp(from, to, { recursive: true });
  const manifest = JSON.parse(await readFile(join(to, 'manifest.json'), 'utf8')) as Manifest;
  for (const month of manifest.forecasts!) {
    expect(month.totals).toBeUndefined();
    const perIssue = Math.max(...month.issues.map((i) => i.rows[1] - i.rows[0]));
    for (const file of month.members ? [month.stats, month.members] : [month.stats])
      await rewrite(to, file, await readTable(join(to, file.path)), perIssue, kind);
    for (const issue of month.issues) {
      delete issue.reservoirs;
      delete issue.withoutTotals;
    }
  }
  await writeFile(join(to, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
}

beforeAll(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'evap-forecast-layout-')), 'new');
  await generateStore(dir, {
    reservoirs: RESERVOIRS,
    stations: 0,
    start: '2021-05-20',
    end: '2021-07-10',
    seed: 5,
    forecasts: { firstIssue: ISSUES[0]!, lastIssue: ISSUES.at(-1)!, members: 4, keepMembers: 2 },
  });
  await monthLayout(dir, `${dir}-month`);
  await oldLayout(`${dir}-month`, `${dir}-footer`, 'footer');
  await oldLayout(`${dir}-month`, `${dir}-whole`, 'whole');
  stores = [
    { name: 'new', store: await openStore(dir) },
    { name: 'month', store: await openStore(`${dir}-month`) },
    { name: 'footer', store: await openStore(`${dir}-footer`) },
    { name: 'whole', store: await openStore(`${dir}-whole`) },
  ];
}, 120_000);
afterAll(async () => {
  for (const { store } of stores) await store.close();
  await rm(join(dir, '..'), { recursive: true, force: true });
});

describe('the forecast files layout', () => {
  it('writes a file set per issue, row groups of a few reservoirs, and keeps each issue reservoirs in the manifest', async () => {
    const { manifest } = stores[0]!.store;
    expect(manifest.forecasts!.map((e) => e.issues.map((i) => i.issued))).toEqual(ISSUES.map((i) => [i]));
    const perGroup = reservoirsPerGroup([RESERVOIRS]);
    expect(RESERVOIRS % perGroup).toBe(0);
    const names = [...manifest.reservoirs.names].sort();
    for (const entry of manifest.forecasts!) {
      const footer = parseFooter(await readFile(join(dir, entry.stats.path)));
      expect(footer.groupStarts.length - 1).toBe(RESERVOIRS / perGroup);
      // each row group's name range (the footer's) is that of its reservoirs, in name order
      for (let g = 0; g + 1 < footer.groupStarts.length; g++) expect(footer.names[g]).toEqual([names[g * perGroup], names[g * perGroup + perGroup - 1]]);
      expect(entry.issues[0]!.reservoirs).toEqual({ first: names[0], last: names.at(-1), count: RESERVOIRS });
      expect(entry.stats.index).toBeDefined(); // the layout beside the file, named by the manifest
      // the totals table: a row group per window and statistic, each of every reservoir
      const totals = parseFooter(await readFile(join(dir, entry.totals!.path)));
      expect(totals.groupStarts).toEqual(Array.from({ length: TOTAL_WINDOWS.length * 8 + 1 }, (_, g) => g * RESERVOIRS));
    }
    // the old month files: row groups within one issue
    const month = stores[1]!.store.manifest.forecasts![0]!;
    const footer = parseFooter(await readFile(join(`${dir}-month`, month.stats.path)));
    expect(footer.groupStarts.length - 1).toBe((ISSUES.length * RESERVOIRS) / perGroup);
    for (let g = 0; g + 1 < footer.groupStarts.length; g++) {
      const within = g % (RESERVOIRS / perGroup);
      expect(footer.names[g]).toEqual([names[within * perGroup], names[within * perGroup + perGroup - 1]]);
    }
  });

  it('answers the totals over a whole number of weeks from the totals table alone, and others from the statistics', async () => {
    const { store } = stores[0]!;
    const entry = store.manifest.forecasts!.at(-1)!;
    const read = new Set<string>();
    const counting = new Proxy(store.storage, {
      get: (target, key) =>
        key === 'read'
          ? (path: string, start: number, length: number) => {
              read.add(path);
              return target.read(path, start, length);
            }
          : Reflect.get(target, key),
    });
    const fresh = await openStore(counting);
    const every = await fresh.forecastTotal({ names: ['ALL'], variables: ['E_volume'], statistics: ['p50'], leads: '1-14' });
    expect(every).toHaveLength(RESERVOIRS);
    expect([...read].filter((p) => p.startsWith('forecasts/'))).toEqual([entry.totals!.index!.path, entry.totals!.path]);
    read.clear();
    await fresh.forecastTotal({ names: ['ALL'], variables: ['E_volume'], statistics: ['p50'], leads: '1-10' });
    expect([...read].filter((p) => p.startsWith('forecasts/'))).toEqual([entry.stats.index!.path, entry.stats.path]);
    await fresh.close();
  });

  it('reads for one reservoir only its row group, and only the columns of the variables asked', async () => {
    const { store } = stores[0]!;
    const month = store.manifest.forecasts![1]!;
    const read: { path: string; start: number; length: number }[] = [];
    const counting: ByteSource = {
      read: (path: string, start: number, length: number) => {
        read.push({ path, start, length });
        return store.storage.read(path, start, length);
      },
    };
    const name = store.manifest.reservoirs.names[7]!;
    const issue = await readIssue(new PartitionReader(counting, createReaderCaches(0, 0)), month, month.issues[0]!, false, {
      names: [name],
      variables: ['E_hs'],
      totals: false,
    });
    expect([...issue.byName.keys()]).toEqual([name]);
    const footer = parseFooter(await readFile(join(dir, month.stats.path)));
    const chunks = read.filter((r) => r.path === month.stats.path);
    // RES_NAME, lead_days, statistic and E_hs of one row group: 4 of 13 columns of a 3rd of the issue's rows, in at
    // most 4 reads (the store's reader reads neighbouring chunks of a row group in one)
    expect(chunks.length).toBeLessThanOrEqual(4);
    const g = footer.ranges.findIndex((group) => group.some(([a]) => a === chunks[0]!.start));
    const covered = (column: string) => {
      const [a, b] = footer.ranges[g]![footer.columns.get(column)!]!;
      return chunks.some((r) => r.start <= a && b <= r.start + r.length);
    };
    expect(['RES_NAME', 'lead_days', 'statistic', 'E_hs'].filter((c) => !covered(c))).toEqual([]);
    const dataBytes = month.stats.bytes - month.stats.footerBytes!;
    const groups = footer.groupStarts.length - 1;
    expect(chunks.reduce((sum, r) => sum + r.length, 0)).toBeLessThan((2 * dataBytes) / groups / 3);
  });

  it('answers every forecast path alike in the new and the three old layouts', async () => {
    const all = stores[0]!.store.manifest.reservoirs.names;
    const question = fc.record({
      names: fc.subarray([...all], { minLength: 1, maxLength: 4 }),
      variables: fc.subarray(['E_hs', 'NetE', 'E_volume', 'NetE_volume', 'pr'], { minLength: 1 }),
      statistics: fc.subarray(['mean', 'p05', 'p10', 'p25', 'p50', 'p75', 'p90', 'p95'], { minLength: 1 }),
      issued: fc.constantFrom('latest', ...ISSUES),
      leads: fc.constantFrom('1-28', '1-7', '1-14', '1-10', '5', '3-9'),
    });
    await fc.assert(
      fc.asyncProperty(question, async (q) => {
        const answers = await Promise.all(
          stores.map(async ({ store }) => [
            await store.forecastDaily(q),
            await store.forecastTotal({ ...q, leads: q.leads.startsWith('1-') ? q.leads : '1-28' }),
            await store.forecastDaily({ ...q, issued: ISSUES.at(-1), statistics: ['members'] }),
            await store.forecastTotal({ ...q, issued: ISSUES.at(-1), statistics: ['p50', 'members'] }),
            await store.forecastLead({ names: q.names, variables: q.variables, statistics: q.statistics, lead: '2' }),
          ]),
        );
        expect(answers[0]![0]!.length).toBeGreaterThan(0);
        expect(answers[1]).toEqual(answers[0]);
        expect(answers[2]).toEqual(answers[0]);
        expect(answers[3]).toEqual(answers[0]);
      }),
      { numRuns: 15 },
    );
    const every = await Promise.all(stores.map(({ store }) => store.forecastTotal({ names: ['ALL'], statistics: ['p10', 'p90'] })));
    expect(every[0]).toHaveLength(RESERVOIRS);
    expect(every[1]).toEqual(every[0]);
    expect(every[2]).toEqual(every[0]);
    expect(every[3]).toEqual(every[0]);
    const verification = await Promise.all(
      stores.map(({ store }) => store.forecastVerification({ names: all.slice(0, 2), variables: ['E_hs'], leads: '1-3' })),
    );
    expect(verification[1]).toEqual(verification[0]);
    expect(verification[2]).toEqual(verification[0]);
    expect(verification[3]).toEqual(verification[0]);
    const issues = await Promise.all(stores.map(({ store }) => store.listForecastIssues(['ALL'])));
    expect(issues[0]).toEqual(all.map((RES_NAME) => ({ RES_NAME, start_date: ISSUES[0], end_date: ISSUES.at(-1) })));
    expect(issues[1]).toEqual(issues[0]);
    expect(issues[2]).toEqual(issues[0]);
    expect(issues[3]).toEqual(issues[0]);
  }, 120_000);

  it("revises an issue of an old month's file by writing that month's issues as file sets of their own, the others' answers unchanged", async () => {
    const copy = `${dir}-month-revised`;
    await cp(`${dir}-month`, copy, { recursive: true });
    const before = await openStore(copy);
    const names = before.manifest.reservoirs.names;
    const asked = { names: [...names], statistics: ['mean', 'p10', 'p50', 'p90', 'p95'] };
    const answers = await Promise.all(ISSUES.map((issued) => before.forecastDaily({ ...asked, issued })));
    await before.close();
    // one reservoir of the middle issue revised (its statistics given again, each value 1 more)
    const revised = answers[1]!
      .filter((r) => r.RES_NAME === names[3])
      .map((r) => {
        const record = { ...r };
        for (const key of Object.keys(record))
          if (typeof record[key] === 'number' && key !== 'lead_days') record[key] = Math.round(((record[key] as number) + 1) * 1e4) / 1e4;
        return record;
      });
    await ingestForecastValues(copy, parseForecastAnswer(JSON.stringify(revised), 'revision.json'));
    const after = await openStore(copy);
    expect(after.manifest.forecasts!.map((e) => e.issues.map((i) => i.issued))).toEqual(ISSUES.map((i) => [i]));
    expect(after.manifest.forecasts!.every((e) => e.totals !== undefined)).toBe(true);
    const now = await Promise.all(ISSUES.map((issued) => after.forecastDaily({ ...asked, issued })));
    expect(now[0]).toEqual(answers[0]);
    expect(now[2]).toEqual(answers[2]);
    expect(now[1]!.filter((r) => r.RES_NAME !== names[3])).toEqual(answers[1]!.filter((r) => r.RES_NAME !== names[3]));
    expect(now[1]!.filter((r) => r.RES_NAME === names[3])).toEqual(revised);
    // the totals of the unrevised reservoirs come from the new totals tables, equal to the old month's
    const totals = await after.forecastTotal({ names: [names[0]!, names[5]!], issued: ISSUES[0] });
    const old = await stores[1]!.store.forecastTotal({ names: [names[0]!, names[5]!], issued: ISSUES[0] });
    expect(totals).toEqual(old);
    expect((await verifyStore(after, after.storage)).problems).toEqual([]);
    await after.close();
  });

  it('is checked by evap verify: an index that says other than its footer is a problem, though its checksum was updated', async () => {
    const { store } = stores[0]!;
    expect((await verifyStore(store, store.storage)).problems).toEqual([]);
    const copy = `${dir}-index`;
    await cp(dir, copy, { recursive: true });
    const manifest = JSON.parse(await readFile(join(copy, 'manifest.json'), 'utf8')) as Manifest;
    const index = manifest.forecasts![0]!.stats.index!;
    const text = (await readFile(join(copy, index.path), 'utf8')).replace(/"[0-9a-f]{32}"/, `"${'0'.repeat(32)}"`); // a chunk's checksum
    expect(text).toContain('0'.repeat(32));
    await writeFile(join(copy, index.path), text);
    Object.assign(index, { bytes: Buffer.byteLength(text), sha256: sha256(new TextEncoder().encode(text)) });
    await writeFile(join(copy, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
    const changed = await openStore(copy);
    expect((await verifyStore(changed, changed.storage)).problems).toEqual([
      `store file ${index.path} does not match the footer of ${manifest.forecasts![0]!.stats.path}`,
    ]);
    await changed.close();
  });

  it('is checked by evap verify: a totals table that says other than its statistics file is a problem, though its checksums were updated', async () => {
    const copy = `${dir}-totals`;
    await cp(dir, copy, { recursive: true });
    const manifest = JSON.parse(await readFile(join(copy, 'manifest.json'), 'utf8')) as Manifest;
    const entry = manifest.forecasts![1]!;
    const table = await readTable(join(copy, entry.totals!.path));
    // one value changed: the p25 (row group 3) of the fifth reservoir's NetE over leads 1-7, written as the writer does
    const netE = table.getChild('NetE_total')!.toArray() as Float64Array;
    const changed = Float64Array.from(netE);
    changed[3 * RESERVOIRS + 4]! += 1;
    const fields = table.schema.fields.map((f) => f.name);
    const columns = Object.fromEntries(fields.map((name) => [name, name === 'NetE_total' ? makeVector(changed) : table.getChild(name)!]));
    await rewrite(copy, entry.totals!, new Table(columns as Record<string, Vector>), RESERVOIRS);
    await writeFile(join(copy, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
    const store = await openStore(copy);
    const name = [...store.manifest.reservoirs.names].sort()[4];
    expect((await verifyStore(store, store.storage)).problems).toEqual([
      `store file ${entry.totals!.path} does not agree with ${entry.stats.path}: the p25 of ${name}'s NetE over leads 1-7`,
    ]);
    await store.close();
  });

  it('sizes row groups by a divisor of every issue count of reservoirs when one is near a dozen', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2000 }), { minLength: 1, maxLength: 31 }), (counts) => {
        const k = reservoirsPerGroup(counts);
        const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
        const g = counts.reduce(gcd, 0);
        expect(k).toBeGreaterThanOrEqual(1);
        expect(k).toBeLessThanOrEqual(24);
        const divisors = Array.from({ length: 19 }, (_, i) => i + 6).filter((d) => g % d === 0);
        if (g === 0) expect(k).toBe(1);
        else if (g <= 24) expect(k).toBe(g);
        else if (divisors.length > 0) {
          expect(g % k).toBe(0);
          for (const d of divisors) expect(Math.abs(k - 12)).toBeLessThanOrEqual(Math.abs(d - 12));
        } else expect(k).toBe(12);
      }),
    );
  });
});
