// evap query, info and metadata answer what the API answers, from a store and from a server; --help and --version.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import { serveSmallStore, tempDir } from '../helpers.js';
import { evap, root } from './harness.js';

let dir: string;
let url: string;
let key: string;
let names: string[];
let stations: string[];

beforeAll(async () => {
  const small = await serveSmallStore();
  ({ dir } = small);
  ({ url, key } = small.server);
  names = small.store.manifest.reservoirs.names;
  stations = small.store.manifest.stations.names;
});

async function api(path: string): Promise<string> {
  const response = await fetch(`${url}${path}`, { headers: { 'api-key': key } });
  expect(response.status, path).toBe(200);
  return response.text();
}

/** A loopback port nobody listens on: one just given back by the system. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe('evap --version and --help', () => {
  it('prints the version of package.json', async () => {
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    const run = await evap(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
  });

  it('lists every command, and each command explains itself with --help', async () => {
    const commands = ['demo', 'serve', 'query', 'info', 'metadata', 'generate', 'ingest', 'mirror', 'vacuum', 'verify', 'keys'];
    const help = await evap(['--help']);
    expect(help.code).toBe(0);
    for (const c of commands) expect(help.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    const runs = await Promise.all(commands.map((c) => evap([c, '--help'])));
    runs.forEach((run, i) => {
      expect(run.code, commands[i]).toBe(0);
      expect(run.stdout.startsWith(`evap ${commands[i]} `), run.stdout.slice(0, 80)).toBe(true);
    });
  });

  it('refuses an unknown command with the nearest one', async () => {
    const run = await evap(['qurey']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "qurey" (did you mean "query"?)');
  });
});

describe('evap query', () => {
  const flags = () => ['--names', names.slice(0, 2).join(','), '--datasets', 'nete-volume-calcs', '--variables', 'NetE,E_volume', '--start', '2020-12-30', '--end', '2021-01-02'];
  const path = () => `/timeseries/daily/reservoirs/daterange?${q({ RES_NAMES: names.slice(0, 2).join(','), datasets: 'nete-volume-calcs', variables: 'NetE,E_volume', start_date: '2020-12-30', end_date: '2021-01-02' })}`;

  it('prints in a pipe the CSV the API sends, from a store and from a server', async () => {
    const expected = await api(`${path()}&output_format=csv`);
    expect(expected.split('\n')).toHaveLength(2 * 4 + 2); // header, 8 records, final newline
    const [local, remote] = await Promise.all([evap(['query', '--store', dir, ...flags()]), evap(['query', '--from', url, '--api-key', key, ...flags()])]);
    expect(local.stderr).toBe('');
    expect(local.stdout).toBe(expected);
    expect(remote.stderr).toBe('');
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
    lines.slice(2).forEach((line, i) => expect(line.split(/ {2,}/).map((c) => (/^-?\d/.test(c) && !c.includes('-', 1) ? Number(c) : c))).toEqual(Object.values(expected[i]!)));
    expect(parquet.code, parquet.stderr).toBe(0);
    const bytes = await readFile(out);
    const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), compressors: { GZIP: (b: Uint8Array) => new Uint8Array(gunzipSync(b)) } });
    expect(rows).toEqual(expected);
  });

  it('queries stations over a range, and every reservoir on one date', async () => {
    const [range, onDate] = await Promise.all([
      evap(['query', 'stations', '--store', dir, '--names', stations.join(','), '--start', '2020-12-25', '--end', '2021-01-05', '--units', 'english']),
      evap(['query', '--store', dir, '--date', '2021-01-01', '--datasets', 'res', '--also-return', 'qflag']),
    ]);
    expect(range.stdout).toBe(await api(`/timeseries/stations/daterange?${q({ STA_NAMES: stations.join(','), start_date: '2020-12-25', end_date: '2021-01-05', units: 'english', output_format: 'csv' })}`));
    expect(onDate.stdout).toBe(await api(`/timeseries/daily/reservoirs/date?${q({ date: '2021-01-01', datasets: 'res', also_return: 'qflag', output_format: 'csv' })}`));
    expect(onDate.stdout.split('\n')).toHaveLength(names.length + 2);
  });

  it('prints monthly, annual and water-year totals as the aggregate paths send them, from a store and from a server', async () => {
    const names2 = names.slice(0, 2).join(',');
    const range = ['--names', names2, '--datasets', 'nete-volume-calcs', '--start', '2020-12-26', '--end', '2021-01-04', '--units', 'english'];
    const params = { RES_NAMES: names2, datasets: 'nete-volume-calcs', start_date: '2020-12-26', end_date: '2021-01-04', units: 'english', output_format: 'csv' };
    const [monthly, remoteMonthly, waterYear, stationMax] = await Promise.all([
      evap(['query', '--store', dir, ...range, '--interval', 'monthly']),
      evap(['query', '--from', url, '--api-key', key, ...range, '--interval', 'monthly']),
      evap(['query', '--store', dir, ...range, '--interval', 'water-year']),
      evap(['query', 'stations', '--store', dir, '--names', stations[0]!, '--start', '2020-01-01', '--end', '2020-12-31', '--interval', 'annual', '--statistic', 'max']),
    ]);
    const expected = await api(`/timeseries/monthly/reservoirs/daterange?${q(params)}`);
    expect(expected.split('\n')).toHaveLength(2 * 2 + 2); // December and January (both clipped), two names
    expect(monthly.stdout).toBe(expected);
    expect(remoteMonthly.stdout).toBe(expected);
    expect(waterYear.stdout).toBe(await api(`/timeseries/water-year/reservoirs/daterange?${q(params)}`));
    expect(stationMax.stdout).toBe(await api(`/timeseries/annual/stations/daterange?${q({ STA_NAMES: stations[0]!, start_date: '2020-01-01', end_date: '2020-12-31', statistic: 'max', output_format: 'csv' })}`));
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
    expect(offline.stderr).toMatch(new RegExp(`^evap query: http://127\\.0\\.0\\.1:${closed}/timeseries/daily/reservoirs/daterange: fetch failed: .*ECONNREFUSED`));
    expect(offline.stderr).not.toContain('usage');
    for (const run of [badFlag, monthly, parquet, both]) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('usage: evap query [reservoirs|stations]');
    }
    expect(badFlag.stderr).toContain("Unknown option '--name'");
    expect(monthly.stderr).toContain('--interval monthly needs --start and --end, not --date');
    expect(parquet.stderr).toContain('--format parquet needs --out FILE');
  });
});

describe('evap info and evap metadata', () => {
  it('answer as the /info and /metadata paths do', async () => {
    const [datasets, variables, dates, reservoirs, stationDates, metadata, stationMetadata] = await Promise.all([
      evap(['info', 'datasets', '--store', dir]),
      evap(['info', 'variables', '--dataset', 'lem', '--store', dir, '--format', 'json']),
      evap(['info', 'dates', '--dataset', 'res', '--variable', 'stage_m', '--from', url, '--api-key', key]),
      evap(['info', 'reservoirs', '--store', dir]),
      evap(['info', 'station-dates', '--names', stations[0]!, '--store', dir]),
      evap(['metadata', '--names', names.join(','), '--store', dir]),
      evap(['metadata', 'stations', '--names', stations.join(','), '--from', url, '--api-key', key]),
    ]);
    expect(datasets.stdout).toBe(await api('/info/list_datasets?output_format=csv'));
    expect(JSON.parse(variables.stdout)).toEqual(JSON.parse(await api('/info/list_variables?dataset=lem')));
    expect(dates.stdout).toBe(await api('/info/list_dates?dataset=res&variable=stage_m&output_format=csv'));
    expect(reservoirs.stdout).toBe(`RES_NAME\n${names.join('\n')}\n`);
    expect(stationDates.stdout).toBe(await api(`/info/list_stations_dates?${q({ STA_NAMES: stations[0]!, output_format: 'csv' })}`));
    expect(metadata.stdout).toBe(await api(`/metadata/reservoirs?${q({ RES_NAMES: names.join(','), output_format: 'csv' })}`));
    expect(stationMetadata.stdout).toBe(await api(`/metadata/stations?${q({ STA_NAMES: stations.join(','), output_format: 'csv' })}`));
  });

  it('summarises the store without a topic, and suggests a dataset for a typo', async () => {
    const [summary, typo] = await Promise.all([evap(['info', '--store', dir]), evap(['info', 'variables', '--dataset', 'lemm', '--store', dir])]);
    expect(summary.stdout.split('\n').slice(0, 6)).toEqual([
      'what,names,start_date,end_date,variables',
      `rtma,${names.length},2020-12-25,2021-01-05,pr tmmx_c tmmn_c vpd_kpa vs2m srad etr eto th sph_kgkg pres_pa`,
      `res,${names.length},2020-12-25,2021-01-05,stage_m area_m2 depth_m`,
      `lem,${names.length},2020-12-25,2021-01-05,E_hs E_nhs Rn Tw Tw0 Fetch Lerr`,
      `nete-volume-calcs,${names.length},2020-12-25,2021-01-05,NetE E_volume NetE_volume`,
      expect.stringMatching(new RegExp(`^stations,${stations.length},2020-12-25,2021-01-05,`)),
    ]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('unknown dataset "lemm" (did you mean "lem"?)');
  });
});

describe('every command', () => {
  it('answers a mistake with exit 2 and its synopsis, and a failure with exit 1 and the cause only', async () => {
    const mistakes: [string[], string][] = [
      [['ingest', '--store', dir], 'give at least one file to ingest'],
      [['ingest', 'missing.csv', '--store', dir], 'no such file: missing.csv'],
      [['verify'], '--store is required'],
      [['vacuum', '--store', dir, '--min-age-minutes', 'soon'], '--min-age-minutes must be a non-negative integer'],
      [['metadata', 'lakes', '--store', dir], 'metadata of reservoirs or stations, not "lakes"'],
      [['info', 'everything', '--store', dir], 'unknown topic "everything"'],
      [['query', '--store', dir, '--from', url, '--api-key', key], 'give --store or --from, not both'],
    ];
    const runs = await Promise.all(mistakes.map(([args]) => evap(args)));
    runs.forEach((run, i) => {
      const [args, message] = mistakes[i]!;
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(`evap ${args[0]}: ${message}`);
      expect(run.stderr).toContain(`usage: evap ${args[0]} `);
    });
    const failure = await evap(['metadata', 'stations', '--names', `${stations[0]!.toLowerCase()}`, '--store', dir]);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toBe(`evap metadata: station not found: ${JSON.stringify(stations[0]!.toLowerCase())} (did you mean ${JSON.stringify(stations[0])}?)\n`);
  });
});

