// evap model end to end: a forcing file through a real child process against the published Lake Powell run, and the
// command's refusals of bad input (a line and a column, a non-zero exit, never a stack trace).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm';
import { describe, expect, it } from 'vitest';
import { cleanUp } from '../../helpers.js';
import { powellFetch, powellForcingCsv, powellLake, powellOutput } from '../../lib/model/powell.js';
import { evap, evapProcess } from '../harness.js';

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'evap-model-'));
  cleanUp(async () => (await import('node:fs/promises')).rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('evap model --forcing', () => {
  it('reproduces the published Lake Powell run from a forcing file, as a child process writing CSV', async () => {
    const dir = await scratch();
    const file = join(dir, 'powell.csv');
    await writeFile(file, powellForcingCsv());
    const args = ['model', '--forcing', file, '--lat', String(powellLake.lat), '--elev', String(powellLake.elev), '--fetch-m', powellFetch().join(',')];
    const run = await evapProcess(args);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [header, ...lines] = run.stdout.trim().split('\n');
    expect(header).toBe('date,E_hs,E_nhs,Rn,Tw,Tw0,Fetch,Lerr,NetE,E_volume,NetE_volume');
    const published = powellOutput();
    const area = new Map(
      powellForcingCsv()
        .trim()
        .split('\n')
        .slice(1)
        .map((row) => [row.split(',')[0]!, Number(row.split(',').at(-1))] as const),
    );
    expect(lines).toHaveLength(published.size);
    for (const line of lines) {
      const [date, eHs, , , , , , lerr, netE, eVolume] = line.split(',');
      const expected = published.get(date!)!;
      expect(Math.abs(Number(eHs) - expected.evapHs), date).toBeLessThan(0.006);
      expect(Number(lerr)).toBe(expected.error);
      expect(netE).toBe(''); // no pr column: no net evaporation
      expect(Number(eVolume)).toBeCloseTo((Number(eHs) / 1000) * area.get(date!)!, 3);
    }
  });

  it('writes JSON and Parquet by the extension of --out', async () => {
    const dir = await scratch();
    const file = join(dir, 'forcing.csv');
    await writeFile(file, 'date,srad,ta_c,vpd_kpa,vs2m,depth_m,pr\n2020-06-01,300,25,2,3,10,1\n2020-06-02,310,26,2.2,3,10,0\n');
    const json = join(dir, 'out.json');
    expect((await evap(['model', '--forcing', file, '--lat', '36', '--elev', '1100', '--fetch-m', '5000', '--out', json])).code).toBe(0);
    const records = JSON.parse(await readFile(json, 'utf8')) as Record<string, number | string | null>[];
    expect(records.map((r) => r.date)).toEqual(['2020-06-01', '2020-06-02']);
    expect(records[0]!.NetE).toBeCloseTo((records[0]!.E_hs as number) - 1, 12);
    expect(records[0]!.E_volume).toBeNull(); // no area
    const parquet = join(dir, 'out.parquet');
    expect((await evap(['model', '--forcing', file, '--lat', '36', '--elev', '1100', '--fetch-m', '5000', '--out', parquet])).code).toBe(0);
    // read back by another Parquet implementation than the writer's (arrow-rs through parquet-wasm)
    const table = tableFromIPC(readParquet(await readFile(parquet)).intoIPCStream());
    expect(Array.from(table.getChild('E_hs')!.toArray() as Float64Array)).toEqual(records.map((r) => r.E_hs));
  });

  it('refuses bad input naming the line and column, exit 1, no stack trace', async () => {
    const dir = await scratch();
    const file = join(dir, 'bad.csv');
    await writeFile(file, 'date,srad,ta_c,vpd_kpa,vs2m,depth_m\n2020-06-01,300,25,2,3,10\n2020-06-02,3OO,26,2,3,10\n');
    const run = await evapProcess(['model', '--forcing', file, '--lat', '36', '--elev', '1100', '--fetch-m', '5000']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('line 3, column srad: "3OO" is not a number');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const usage = await evap(['model', '--forcing', file, '--elev', '1100', '--fetch-m', '5000']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--lat DEG is required');
    const fetch = await evap(['model', '--forcing', file, '--lat', '36', '--elev', '1100', '--fetch-m', '1,2,3']);
    expect(fetch.code).toBe(2);
    expect(fetch.stderr).toContain('12 of them');
  });
});
