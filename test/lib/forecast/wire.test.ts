// The daily forecast's JSON and CSV text against records made by a plain loop from the issue's Parquet rows, read
// with hyparquet straight from the files the manifest names (not through the store's reader); the CSV parsed with
// csv-parse. So a change of how forecasts are read or formatted must keep what the wire carries.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvapStore } from '../../../lib/open/store.js';
import { fixtureNames, forecastStore } from './fixture.js';

let store: EvapStore;
beforeAll(async () => {
  store = await forecastStore();
}, 120_000);

const compressors = { GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) };
const rowsOf = async (path: string) => {
  const bytes = await readFile(join(store.root, path));
  return parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, compressors });
};
const text = async (chunks: AsyncIterable<string>) => {
  let all = '';
  for await (const c of chunks) all += c;
  return all;
};
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe('the daily forecast on the wire', () => {
  it('is, as JSON and as CSV, the records a plain loop makes of the Parquet rows', async () => {
    const month = store.manifest.forecasts!.at(-1)!;
    const issued = month.issues.at(-1)!.issued;
    const members = month.issues.at(-1)!.members;
    expect(members).toBeGreaterThan(0); // the fixture keeps the last issues' members
    const variables = [
      ['E_hs', 'mm'],
      ['E_volume', 'm3'],
    ] as const;
    const stats = ['mean', 'p90'];
    const memberNames = Array.from({ length: members }, (_, m) => `m${String(m + 1).padStart(2, '0')}`);
    // the plain loop: a record per reservoir and lead, each value at its key, rounded to 4 decimals
    const expected = new Map<string, Record<string, unknown>>();
    for (const name of fixtureNames)
      for (let lead = 1; lead <= 28; lead++) {
        const record: Record<string, unknown> = { RES_NAME: name, issued, valid_date: addDays(issued, lead), lead_days: lead };
        for (const [v, unit] of variables) for (const s of [...stats, ...memberNames]) record[`${v} (${unit}) ${s}`] = null;
        expected.set(`${name}|${lead}`, record);
      }
    const wanted = new Set([...stats, ...memberNames]);
    for (const path of [month.stats.path, month.members!.path])
      for (const row of await rowsOf(path)) {
        const record = expected.get(`${row.RES_NAME}|${Number(row.lead_days)}`);
        if (!record || !wanted.has(row.statistic as string)) continue;
        for (const [v, unit] of variables) {
          const x = row[v] as number | null;
          record[`${v} (${unit}) ${row.statistic}`] = x === null ? null : Math.round(x * 1e4) / 1e4;
        }
      }
    const options = { names: fixtureNames, variables: variables.map(([v]) => v), statistics: [...stats, 'members'], issued };
    const json = JSON.parse(await text(store.streamForecastDaily(options).json())) as Record<string, unknown>[];
    expect(json).toHaveLength(expected.size);
    const want = [...expected.values()];
    json.forEach((record, i) => {
      expect(Object.keys(record)).toEqual(Object.keys(want[i]!));
      for (const [key, x] of Object.entries(want[i]!)) {
        if (typeof x === 'number') expect(Math.abs((record[key] as number) - x), `${i} ${key}`).toBeLessThanOrEqual(1e-9 + 1e-15 * Math.abs(x));
        else expect(record[key], `${i} ${key}`).toBe(x);
      }
    });
    // CSV: the header is the keys, each field the JSON value's text ('' for null)
    const csv = parse(await text(store.streamForecastDaily(options).csv()), { columns: true }) as Record<string, string>[];
    expect(csv).toHaveLength(json.length);
    csv.forEach((row, i) => {
      expect(Object.keys(row)).toEqual(Object.keys(json[i]!));
      for (const [key, value] of Object.entries(json[i]!)) expect(row[key], `${i} ${key}`).toBe(value === null ? '' : String(value));
    });
  });
});
