// The forecast files' layout: row groups of a few reservoirs each, so a query of one reservoir decodes one small row
// group and only its variables' columns. Stores written the old ways (a row group per issue with the footer's
// checksum; or no footer checksum, read whole) must answer the same, so a copy of a new store is rewritten in each
// old layout and every forecast path is compared across the three over random questions.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import fc from 'fast-check';
import * as wasm from 'parquet-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIssue, reservoirsPerGroup } from '../../../lib/forecast/files.js';
import { generateStore } from '../../../lib/model/generate.js';
import { sha256 } from '../../../lib/store/disk.js';
import type { ForecastFile, Manifest } from '../../../lib/store/manifest.js';
import { parseFooter } from '../../../lib/store/parquet.js';
import { encodeParquet } from '../../../lib/store/parquet-encode.js';
import type { ByteSource } from '../../../lib/store/source.js';
import { type EvapStore, openStore } from '../../../lib/store/store.js';
import { verifyStore } from '../../../lib/store/verify.js';

const RESERVOIRS = 30;
const ISSUES = ['2021-06-08', '2021-06-09', '2021-06-10'];
let dir: string;
let stores: { name: string; store: EvapStore }[] = [];

// rewrites every forecast file of a copied store as the writer did before: a row group per issue (`footer`: with
// the footer's length and checksum in the manifest) or the file read whole (`whole`); no index, no issue reservoirs
async function oldLayout(from: string, to: string, kind: 'footer' | 'whole'): Promise<void> {
  await cp(from, to, { recursive: true });
  const manifest = JSON.parse(await readFile(join(to, 'manifest.json'), 'utf8')) as Manifest;
  for (const month of manifest.forecasts!) {
    const perIssue = Math.max(...month.issues.map((i) => i.rows[1] - i.rows[0]));
    for (const file of month.members ? [month.stats, month.members] : [month.stats]) {
      const table = tableFromIPC(wasm.readParquet(await readFile(join(to, file.path))).intoIPCStream());
      const { bytes, footerLength } = encodeParquet(table, perIssue);
      expect(parseFooter(bytes.subarray(bytes.byteLength - footerLength)).groupStarts.length - 1).toBe(Math.ceil(table.numRows / perIssue));
      await writeFile(join(to, file.path), bytes);
      const entry = file as ForecastFile;
      Object.assign(entry, { bytes: bytes.byteLength, sha256: sha256(bytes) });
      delete entry.index;
      if (kind === 'footer') Object.assign(entry, { footerBytes: footerLength, footerSha256: sha256(bytes.subarray(bytes.byteLength - footerLength)) });
      else {
        delete entry.footerBytes;
        delete entry.footerSha256;
      }
    }
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
  await oldLayout(dir, `${dir}-footer`, 'footer');
  await oldLayout(dir, `${dir}-whole`, 'whole');
  stores = [
    { name: 'new', store: await openStore(dir) },
    { name: 'footer', store: await openStore(`${dir}-footer`) },
    { name: 'whole', store: await openStore(`${dir}-whole`) },
  ];
}, 120_000);
afterAll(async () => {
  for (const { store } of stores) await store.close();
  await rm(join(dir, '..'), { recursive: true, force: true });
});

describe('the forecast files layout', () => {
  it('writes row groups of a few reservoirs within one issue, and keeps each issue reservoirs in the manifest', async () => {
    const { manifest } = stores[0]!.store;
    const month = manifest.forecasts![0]!;
    const footer = parseFooter(await readFile(join(dir, month.stats.path)));
    const perGroup = reservoirsPerGroup([RESERVOIRS]);
    expect(RESERVOIRS % perGroup).toBe(0);
    expect(footer.groupStarts.length - 1).toBe((ISSUES.length * RESERVOIRS) / perGroup);
    // every row group lies within one issue, and its name range (the footer's) is that of its reservoirs, in name order
    const names = [...manifest.reservoirs.names].sort();
    for (let g = 0; g + 1 < footer.groupStarts.length; g++) {
      const within = g % (RESERVOIRS / perGroup);
      expect(footer.names[g]).toEqual([names[within * perGroup], names[within * perGroup + perGroup - 1]]);
    }
    for (const issue of month.issues) expect(issue.reservoirs).toEqual({ first: names[0], last: names.at(-1), count: RESERVOIRS });
    expect(month.stats.index).toBeDefined(); // the layout beside the file, named by the manifest
  });

  it('reads for one reservoir only its row group, and only the columns of the variables asked', async () => {
    const { store } = stores[0]!;
    const month = store.manifest.forecasts![0]!;
    const read: { path: string; length: number }[] = [];
    const counting: ByteSource = {
      read: (path: string, start: number, length: number) => {
        read.push({ path, length });
        return store.storage.read(path, start, length);
      },
    };
    const name = store.manifest.reservoirs.names[7]!;
    const issue = await readIssue(counting, `${dir}#counting`, month, month.issues[1]!, false, { names: [name], variables: ['E_hs'], totals: false });
    expect([...issue.byName.keys()]).toEqual([name]);
    const footer = parseFooter(await readFile(join(dir, month.stats.path)));
    const chunks = read.filter((r) => r.path === month.stats.path);
    // RES_NAME, lead_days, statistic and E_hs of one row group: a 13th of the columns of a 3rd of an issue's rows
    expect(chunks).toHaveLength(4);
    const dataBytes = month.stats.bytes - month.stats.footerBytes!;
    const groups = footer.groupStarts.length - 1;
    expect(chunks.reduce((sum, r) => sum + r.length, 0)).toBeLessThan((2 * dataBytes) / groups / 3);
  });

  it('answers every forecast path alike in the new and the two old layouts', async () => {
    const all = stores[0]!.store.manifest.reservoirs.names;
    const question = fc.record({
      names: fc.subarray([...all], { minLength: 1, maxLength: 4 }),
      variables: fc.subarray(['E_hs', 'NetE', 'E_volume', 'NetE_volume', 'pr'], { minLength: 1 }),
      statistics: fc.subarray(['mean', 'p05', 'p10', 'p25', 'p50', 'p75', 'p90', 'p95'], { minLength: 1 }),
      issued: fc.constantFrom('latest', ...ISSUES),
      leads: fc.constantFrom('1-28', '1-7', '5', '3-9'),
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
      }),
      { numRuns: 15 },
    );
    const every = await Promise.all(stores.map(({ store }) => store.forecastTotal({ names: ['ALL'], statistics: ['p10', 'p90'] })));
    expect(every[0]).toHaveLength(RESERVOIRS);
    expect(every[1]).toEqual(every[0]);
    expect(every[2]).toEqual(every[0]);
    const verification = await Promise.all(
      stores.map(({ store }) => store.forecastVerification({ names: all.slice(0, 2), variables: ['E_hs'], leads: '1-3' })),
    );
    expect(verification[1]).toEqual(verification[0]);
    expect(verification[2]).toEqual(verification[0]);
    const issues = await Promise.all(stores.map(({ store }) => store.listForecastIssues(['ALL'])));
    expect(issues[0]).toEqual(all.map((RES_NAME) => ({ RES_NAME, start_date: ISSUES[0], end_date: ISSUES.at(-1) })));
    expect(issues[1]).toEqual(issues[0]);
    expect(issues[2]).toEqual(issues[0]);
  }, 120_000);

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
