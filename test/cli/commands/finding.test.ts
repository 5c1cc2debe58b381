// Finding things in the demo store (its real names): names that hold a partial one, a station asked as a reservoir,
// a ranking of metadata, asked variables a station does not measure, and one exit status for every refused flag value.
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers.js';
import { demoStore, parseCsv, startTestServer } from '../../server/harness.js';
import { evap } from '../harness.js';

const store = ['--store', 'data'];

describe('names', () => {
  it('suggests the names that hold a partial one, and says a station asked as a reservoir is one', async () => {
    const [mead, station, reservoir] = await Promise.all([
      evap(['query', ...store, '--names', 'MEAD']),
      evap(['query', ...store, '--names', 'LAKE MEAD_STATION']),
      evap(['query', 'stations', ...store, '--names', 'LAKE MEAD']),
    ]);
    expect(mead.code).toBe(1);
    expect(mead.stderr).toBe('evap query: reservoir not found: "MEAD" (did you mean "LAKE MEAD"?)\n');
    expect(station.code).toBe(1);
    expect(station.stderr).toContain('reservoir not found: "LAKE MEAD_STATION" (it is a station, not a reservoir)');
    expect(station.stderr).toContain('evap query stations --names "LAKE MEAD_STATION"');
    expect(reservoir.stderr).toContain('station not found: "LAKE MEAD" (it is a reservoir, not a station; did you mean "LAKE MEAD_STATION"?)');
    expect(reservoir.stderr).toContain('evap query reservoirs --names "LAKE MEAD"');
  });

  it('gives the same words over HTTP, with the paths of the other kind and the 404 kept', async () => {
    const server = await startTestServer({ store: await demoStore() });
    try {
      const detail = async (path: string) => {
        const response = await server.get(path);
        return [response.status, ((await response.json()) as { detail: string }).detail] as const;
      };
      const [mead, station, reservoir] = await Promise.all([
        detail('/timeseries/daily/reservoirs/daterange?RES_NAMES=MEAD'),
        detail('/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MEAD_STATION'),
        detail('/timeseries/stations/daterange?STA_NAMES=LAKE%20MEAD'),
      ]);
      expect(mead).toEqual([404, 'reservoir not found: "MEAD" (did you mean "LAKE MEAD"?); see /info/list_RES_NAMES']);
      expect(station[0]).toBe(404);
      expect(station[1]).toBe(
        'reservoir not found: "LAKE MEAD_STATION" (it is a station, not a reservoir); see /info/list_RES_NAMES; stations are at /timeseries/stations/daterange and /metadata/stations',
      );
      expect(reservoir[0]).toBe(404);
      expect(reservoir[1]).toContain('(it is a reservoir, not a station; did you mean "LAKE MEAD_STATION"?)');
      expect(reservoir[1]).toContain('reservoirs are at /timeseries/daily/reservoirs/daterange');
    } finally {
      await server.close();
    }
  });
});

describe('evap metadata --sort --top', () => {
  it('ranks every reservoir by a numeric field, largest first with --top, as a plain sort of all rows says', async () => {
    const [all, top] = await Promise.all([
      evap(['metadata', ...store, '--names', 'ALL', '--format', 'csv']),
      evap(['metadata', ...store, '--sort', 'CAPACITY_M3', '--top', '5', '--format', 'csv']),
    ]);
    expect(top.code, top.stderr).toBe(0);
    // the oracle: every row, sorted by hand by the number
    const expected = parseCsv(all.stdout)
      .filter((r) => typeof r.CAPACITY_M3 === 'number')
      .sort((a, b) => (b.CAPACITY_M3 as number) - (a.CAPACITY_M3 as number))
      .slice(0, 5)
      .map((r) => r.RES_NAME);
    expect(parseCsv(top.stdout).map((r) => r.RES_NAME)).toEqual(expected);
    expect(expected[0]).toBe('LAKE MEAD');
  });

  it('sorts stations ascending without --top, and names the fields for an unknown one', async () => {
    const [byLat, unknown, topAlone] = await Promise.all([
      evap(['metadata', 'stations', ...store, '--sort', 'LAT', '--format', 'csv']),
      evap(['metadata', ...store, '--sort', 'CAPACITY', '--top', '5']),
      evap(['metadata', ...store, '--top', '5']),
    ]);
    const lats = parseCsv(byLat.stdout).map((r) => r.LAT as number);
    expect(lats.length).toBeGreaterThan(20); // every station, not the API's default two
    expect(lats).toEqual([...lats].sort((a, b) => a - b));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--sort "CAPACITY" is not a metadata field (did you mean "CAPACITY_M3"?); the fields: RES_NAME,');
    expect(topAlone.code).toBe(2);
    expect(topAlone.stderr).toContain('--top N needs --sort FIELD');
  });
});

describe('evap query stations with variables a station does not measure', () => {
  const aberdeen = (variables: string) =>
    evap(['query', 'stations', ...store, '--names', 'ABERDEEN_STATION', '--variables', variables, '--start', '2020-01-01', '--end', '2020-01-02']);

  it('says on stderr which variables the station has', async () => {
    const [run, measured] = await Promise.all([aberdeen('BR,ATemp'), aberdeen('ATemp')]);
    expect(run.code).toBe(0);
    expect(parseCsv(run.stdout).map((r) => r['BR (unitless)'])).toEqual([null, null]);
    // beside the demo store's synthetic note, the same in both runs
    const notes = (stderr: string) => stderr.split('\n').filter((line) => line !== '' && !line.includes('SYNTHETIC'));
    expect(notes(run.stderr)).toEqual([expect.stringMatching(/^evap query: ABERDEEN_STATION does not measure BR: its values are empty; it measures ATemp, /)]);
    expect(notes(measured.stderr)).toEqual([]);
  });
});

describe('a refused flag value', () => {
  it('exits 2 with the accepted values and the synopsis, whichever flag it is', async () => {
    const runs = await Promise.all([
      evap(['query', ...store, '--units', 'imperial']),
      evap(['query', ...store, '--interval', 'weekly']),
      evap(['query', ...store, '--format', 'xlsx']),
      evap(['query', ...store, '--datasets', 'rtmaa']),
    ]);
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('usage: evap query [reservoirs|stations]');
    }
    expect(runs[0]!.stderr).toContain('units must be one of metric, english; got "imperial"');
    expect(runs[1]!.stderr).toContain('--interval must be one of daily, monthly, annual, water-year; got "weekly"');
    expect(runs[2]!.stderr).toContain('--format must be one of table, csv, json, parquet; got "xlsx"');
  });

  it('refuses --out with an extension evap does not write, and writes nothing', async () => {
    const folder = await tempDir();
    const run = await evap(['query', ...store, '--out', `${folder}/mead.xlsx`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('evap writes no .xlsx files; name it .csv, .json or .parquet, or give --format (table, csv, json, parquet)');
    expect(await readdir(folder)).toEqual([]);
  });
});
