// evap query answers what the API answers, from a store and from a server, in every format; --as-of answers from a past snapshot.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../../lib/format/csv.js';
import { ingest, textSource } from '../../../lib/ingest/ingest.js';
import { openStore } from '../../../lib/open/store.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { serveSmallStore, tempDir } from '../../helpers.js';
import { evap } from '../harness.js';

const {
  dir,
  names,
  stations,
  api,
  server: { url, key },
} = await serveSmallStore({ copy: true });

/** A loopback port nobody listens on: one just given back by the system. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

// the line said after every answer of a synthetic store or server (the small store is generated: synthetic)
const storeNote = `evap: the store ${dir} holds SYNTHETIC values (real names, made-up numbers), not OperEvap data; evap info about --store ${dir} says more\n`;
const serverNote = `evap: the server at ${url} holds SYNTHETIC values (real names, made-up numbers), not OperEvap data; evap info about --from ${url} says more\n`;

describe('evap query', () => {
  const flags = () => [
    '--names',
    names.slice(0, 2).join(','),
    '--datasets',
    'nete-volume-calcs',
    '--variables',
    'NetE,E_volume',
    '--start',
    '2020-12-30',
    '--end',
    '2021-01-02',
  ];
  const path = () =>
    `/timeseries/daily/reservoirs/daterange?${q({ RES_NAMES: names.slice(0, 2).join(','), datasets: 'nete-volume-calcs', variables: 'NetE,E_volume', start_date: '2020-12-30', end_date: '2021-01-02' })}`;

  it('prints in a pipe the CSV the API sends, from a store and from a server', async () => {
    const expected = await api(`${path()}&output_format=csv`);
    expect(expected.split('\n')).toHaveLength(2 * 4 + 2); // header, 8 records, final newline
    const [local, remote] = await Promise.all([evap(['query', '--store', dir, ...flags()]), evap(['query', '--from', url, '--api-key', key, ...flags()])]);
    expect(local.stderr).toBe(storeNote);
    expect(local.stdout).toBe(expected);
    expect(remote.stderr).toBe(serverNote); // read from the server's X-Evap-Data header
    expect(remote.stdout).toBe(expected);
  });

  it('prints JSON, an aligned table, and writes Parquet, with the values the API sends', async () => {
    const expected = JSON.parse(await api(path())) as Record<string, unknown>[];
    const out = join(await tempDir(), 'answer.parquet');
    const [json, remoteJson, table, parquet] = await Promise.all([
      evap(['query', '--store', dir, ...flags(), '--format', 'json']),
      evap(['query', '--from', url, '--api-key', key, ...flags(), '--format', 'json']),
      evap(['query', '--store', dir, ...flags(), '--format', 'table']),
      evap(['query', '--store', dir, ...flags(), '--format', 'parquet', '--out', out]),
    ]);
    expect(JSON.parse(json.stdout)).toEqual(expected);
    expect(JSON.parse(remoteJson.stdout)).toEqual(expected);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]!.split(/ {2,}/)).toEqual(Object.keys(expected[0]!));
    expect(lines).toHaveLength(expected.length + 2);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1); // numbers right-aligned in a rectangle
    lines
      .slice(2)
      .forEach((line, i) =>
        expect(line.split(/ {2,}/).map((c) => (/^-?\d/.test(c) && !c.includes('-', 1) ? Number(c) : c))).toEqual(Object.values(expected[i]!)),
      );
    expect(parquet.code, parquet.stderr).toBe(0);
    const bytes = await readFile(out);
    const rows = await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      compressors: { GZIP: (b: Uint8Array) => new Uint8Array(gunzipSync(b)) },
    });
    const day = (d: unknown) => (d instanceof Date ? d.toISOString().slice(0, 10) : d); // DATE columns read as Date
    expect(rows.map((r) => ({ ...r, start_date: day(r.start_date), end_date: day(r.end_date) }))).toEqual(expected);
    expect(rows[0]!.start_date).toBeInstanceOf(Date);
  });

  it('queries stations over a range, and every reservoir on one date', async () => {
    const [range, onDate] = await Promise.all([
      evap(['query', 'stations', '--store', dir, '--names', stations.join(','), '--start', '2020-12-25', '--end', '2021-01-05', '--units', 'english']),
      evap(['query', '--store', dir, '--date', '2021-01-01', '--datasets', 'res', '--also-return', 'qflag']),
    ]);
    expect(range.stdout).toBe(
      await api(
        `/timeseries/stations/daterange?${q({ STA_NAMES: stations.join(','), start_date: '2020-12-25', end_date: '2021-01-05', units: 'english', output_format: 'csv' })}`,
      ),
    );
    expect(onDate.stdout).toBe(
      await api(`/timeseries/daily/reservoirs/date?${q({ date: '2021-01-01', datasets: 'res', also_return: 'qflag', output_format: 'csv' })}`),
    );
    expect(onDate.stdout.split('\n')).toHaveLength(names.length + 2);
  });

  it('prints monthly, annual and water-year totals as the aggregate paths send them, from a store and from a server', async () => {
    const names2 = names.slice(0, 2).join(',');
    const range = ['--names', names2, '--datasets', 'nete-volume-calcs', '--start', '2020-12-26', '--end', '2021-01-04', '--units', 'english'];
    const params = {
      RES_NAMES: names2,
      datasets: 'nete-volume-calcs',
      start_date: '2020-12-26',
      end_date: '2021-01-04',
      units: 'english',
      output_format: 'csv',
    };
    const normal = ['--compare-to', 'normal', '--base-start', '2020-12-25', '--base-end', '2021-01-05'];
    const [monthly, remoteMonthly, waterYear, stationMax, compared, dailyCompared] = await Promise.all([
      evap(['query', '--store', dir, ...range, '--interval', 'monthly']),
      evap(['query', '--from', url, '--api-key', key, ...range, '--interval', 'monthly']),
      evap(['query', '--store', dir, ...range, '--interval', 'water-year']),
      evap([
        'query',
        'stations',
        '--store',
        dir,
        '--names',
        stations[0]!,
        '--start',
        '2020-01-01',
        '--end',
        '2020-12-31',
        '--interval',
        'annual',
        '--statistic',
        'max',
      ]),
      evap(['query', '--store', dir, ...range, '--interval', 'monthly', ...normal]),
      evap(['query', '--store', dir, ...range, ...normal]),
    ]);
    const expected = await api(`/timeseries/monthly/reservoirs/daterange?${q(params)}`);
    // every option of the table is a flag: compare_to and the base period too, and one the operation does not take is a mistake
    expect(compared.stdout).toBe(
      await api(`/timeseries/monthly/reservoirs/daterange?${q({ ...params, compare_to: 'normal', base_start: '2020-12-25', base_end: '2021-01-05' })}`),
    );
    expect(compared.stdout).toMatch(/pct_of_normal/);
    expect([dailyCompared.code, dailyCompared.stderr.split('\n')[0]]).toEqual([2, 'evap query: --compare-to is not an option of a daily reservoir query']);
    expect(expected.split('\n')).toHaveLength(2 * 2 + 2); // December and January (both clipped), two names
    expect(monthly.stdout).toBe(expected);
    expect(remoteMonthly.stdout).toBe(expected);
    expect(waterYear.stdout).toBe(await api(`/timeseries/water-year/reservoirs/daterange?${q(params)}`));
    expect(stationMax.stdout).toBe(
      await api(
        `/timeseries/annual/stations/daterange?${q({ STA_NAMES: stations[0]!, start_date: '2020-01-01', end_date: '2020-12-31', statistic: 'max', output_format: 'csv' })}`,
      ),
    );
  });

  it('says what is wrong: the cause for a failure, the synopsis for a mistake', async () => {
    const misspelt = names[0]!.replace(/.$/, (c) => (c === 'X' ? 'Y' : 'X'));
    const closed = await closedPort();
    const [unknown, offline, badFlag, monthly, parquet, both] = await Promise.all([
      evap(['query', '--store', dir, '--names', misspelt]),
      evap(['query', '--from', `http://127.0.0.1:${closed}`, '--api-key', 'k']),
      evap(['query', '--store', dir, '--name', 'X']),
      evap(['query', '--store', dir, '--interval', 'monthly', '--date', '2021-01-01']),
      evap(['query', '--store', dir, '--format', 'parquet']),
      evap(['query', '--store', dir, '--date', '2021-01-01', '--start', '2021-01-01']),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(`evap query: reservoir not found: ${JSON.stringify(misspelt)} (did you mean ${JSON.stringify(names[0])}?)\n`);
    expect(offline.code).toBe(1);
    expect(offline.stderr).toMatch(
      new RegExp(`^evap query: http://127\\.0\\.0\\.1:${closed}/timeseries/daily/reservoirs/daterange: fetch failed: .*ECONNREFUSED`),
    );
    expect(offline.stderr).not.toContain('usage');
    for (const run of [badFlag, monthly, parquet, both]) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('usage: evap query [reservoirs|stations]');
    }
    expect(badFlag.stderr).toContain(`Unknown option '--name' (did you mean "--names"?)`);
    expect(monthly.stderr).toContain('--interval monthly needs --start and --end, not --date');
    expect(parquet.stderr).toContain('--format parquet needs --out FILE');
  });

  it('names the flags the user typed in errors, not the wire names', async () => {
    const [badStart, badEnd, remote] = await Promise.all([
      evap(['query', '--store', dir, '--names', names[0]!, '--start', '2021-02-30']),
      evap(['query', '--store', dir, '--names', names[0]!, '--start', '2021-01-02', '--end', '2021-01-01']),
      evap(['query', '--from', url, '--api-key', key, '--names', names[0]!, '--end', 'yesterday']),
    ]);
    expect(badStart.stderr).toMatch(/^evap query: --start is not a calendar date: 2021-02-30 does not exist\nusage: evap query /);
    for (const run of [badStart, badEnd, remote]) {
      expect(run.code, run.stderr).toBe(2); // a refused flag value: exit 2 with the synopsis, as every mistake
      expect(run.stderr).not.toMatch(/start_date|end_date/);
    }
    expect(badEnd.stderr).toMatch(/--end/);
    expect(remote.stderr).toMatch(/--end/);
  });

  it('says from a server what it says from a store: the flags typed, never a wire name or path', async () => {
    const cases = [
      ['query', '--names', `ABERDEEN_STATION,${names[0]}`], // a station asked as a reservoir: the command that answers it
      ['metadata', '--names', 'ABERDEEN_STATION'],
      ['query', '--names', names[0]!, '--modified-since', 'yesterday'],
      ['forecast', '--names', ''],
      ['forecast', '--names', names[0]!, '--lead', '3', '--start', '2021-07-01', '--end', '2021-06-01'],
      ['forecast', '--names', names[0]!, '--verification', '--start', '2021-02-30'],
      ['forecast', '--names', names[0]!, '--as-of', 'yesterday'],
    ];
    for (const [command, ...args] of cases) {
      const [local, remote] = await Promise.all([evap([command!, '--store', dir, ...args]), evap([command!, '--from', url, '--api-key', key, ...args])]);
      const what = [command, ...args].join(' ');
      expect([remote.code, remote.stderr], what).toEqual([local.code, local.stderr]);
      expect(local.code, what).not.toBe(0);
      expect(local.stderr, what).not.toMatch(/RES_NAMES|STA_NAMES|start_date|end_date|as_of|modified_since|\/info\/|\/timeseries\//);
    }
  });

  it('says on stderr when nothing matched, with the dates the data hold, and exits 0', async () => {
    const [reservoirs, json, stationRun, matched] = await Promise.all([
      evap(['query', '--store', dir, '--names', names[0]!, '--datasets', 'lem', '--start', '1990-01-01', '--end', '1990-12-31']),
      evap(['query', '--from', url, '--api-key', key, '--names', names[0]!, '--start', '1990-01-01', '--end', '1990-12-31', '--format', 'json']),
      evap(['query', 'stations', '--store', dir, '--names', stations[0]!, '--start', '1990-01-01', '--end', '1990-12-31', '--format', 'table']),
      evap(['query', '--store', dir, '--names', names[0]!, '--start', '2021-01-01', '--end', '2021-01-01']),
    ]);
    const [lem] = JSON.parse(await api('/info/list_dates?dataset=lem&variable=E_hs')) as { start_date: string; end_date: string }[];
    expect(reservoirs.code).toBe(0);
    expect(reservoirs.stdout.split('\n')).toHaveLength(2); // the header only
    expect(reservoirs.stderr).toBe(
      `evap query: nothing matched from 1990-01-01 to 1990-12-31; the data hold ${lem!.start_date} to ${lem!.end_date} (lem) (evap info dates); the answer is empty\n${storeNote}`,
    );
    expect([json.code, json.stdout]).toEqual([0, '[]\n']);
    expect(json.stderr).toMatch(/^evap query: nothing matched from 1990-01-01 to 1990-12-31; the data hold \d{4}-\d\d-\d\d to /);
    expect(stationRun.stderr).toMatch(/nothing matched .* for those stations/);
    expect(matched.stderr).toBe(storeNote);
  });

  it('writes the format of --out FILE when --format is left out, and refuses a contradiction', async () => {
    const folder = await tempDir();
    const [parquet, json, clash] = await Promise.all([
      evap(['query', '--store', dir, ...flags(), '--out', join(folder, 'a.parquet')]),
      evap(['query', '--store', dir, ...flags(), '--out', join(folder, 'a.JSON')]),
      evap(['query', '--store', dir, ...flags(), '--format', 'csv', '--out', join(folder, 'b.parquet')]),
    ]);
    expect([parquet.code, json.code]).toEqual([0, 0]);
    const written = await readFile(join(folder, 'a.parquet'));
    expect(written.subarray(0, 4).toString()).toBe('PAR1');
    const { key_value_metadata } = parquetMetadata(written.buffer.slice(written.byteOffset, written.byteOffset + written.byteLength));
    expect(key_value_metadata).toContainEqual({ key: 'evap.data', value: 'synthetic' }); // the small store is generated
    expect(JSON.parse(await readFile(join(folder, 'a.JSON'), 'utf8'))).toEqual(JSON.parse(await api(path())));
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('--format csv contradicts --out');
    await expect(readFile(join(folder, 'b.parquet'))).rejects.toThrow(/ENOENT/);
  });

  it('prints with --as-of the records as they were before a revision, with their day flags', async () => {
    const dir = await tempDir();
    await generateStore(dir, { reservoirs: 2, stations: 1, start: '2021-01-01', end: '2021-02-28', seed: 4 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const store = await openStore(dir);
    const name = store.manifest.reservoirs.names[0]!;
    const query = { names: [name], datasets: ['lem'], variables: ['E_hs'], start: '2021-02-20', end: '2021-02-28', alsoReturn: ['qflag', 'status'] };
    const old = await store.reservoirTimeseries(query);
    await store.close();
    await ingest(dir, [textSource('revision.json', JSON.stringify(old.map((r) => ({ ...r, 'E_hs (mm)': 1.5, status: 'Final' }))))]);
    const args = [
      'query',
      '--store',
      dir,
      '--names',
      name,
      '--datasets',
      'lem',
      '--variables',
      'E_hs',
      '--start',
      '2021-02-20',
      '--end',
      '2021-02-28',
      '--also-return',
      'qflag,status',
      '--format',
      'csv',
    ];
    const [then, now] = await Promise.all([evap([...args, '--as-of', before]), evap(args)]);
    expect(then.code, then.stderr).toBe(0);
    expect(then.stdout).toBe(recordsToCsv(old, Object.keys(old[0]!)));
    expect(now.stdout.split('\n')).toHaveLength(1 + 9 + 1);
    expect(old.some((r) => r.status !== 'Final')).toBe(true);
    expect(
      now.stdout
        .split('\n')
        .slice(1, -1)
        .every((line) => line.endsWith(',1.5,O,Final') || line.endsWith(',1.5,M,Final') || line.endsWith(',1.5,R,Final') || line.endsWith(',1.5,S,Final')),
    ).toBe(true);
    const refused = await evap([...args, '--as-of', '2001-01-01']);
    expect(refused.code).toBe(2); // --as-of's value refused
    expect(refused.stderr).toMatch(/oldest snapshot is 1/);
  });
});
