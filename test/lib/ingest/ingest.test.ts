import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { findReservoirVariable, findStationVariable, units } from '../../../lib/catalogue.js';
import { recordsToCsv } from '../../../lib/format/csv.js';
import { ingest, textSource } from '../../../lib/ingest/ingest.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import type { WireRecord } from '../../../lib/types.js';
import { serveSmallStore, smallStoreRange, tempDir, writeTinyStore } from '../../helpers.js';

let source: EvapStore;
let sourceDir: string;
let server: { url: string; key: string };

beforeAll(async () => {
  ({ dir: sourceDir, store: source, server } = await serveSmallStore());
});

/** The body of a documented path on the loopback server, as a client of the public service would save it. */
async function exportText(path: string, params: Record<string, string>): Promise<string> {
  const url = new URL(server.url + path);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const response = await fetch(url, { headers: { 'api-key': server.key } });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.text();
}

/** Copies the small store so that a test may change it. */
async function copyOfSource(): Promise<string> {
  const dir = join(await tempDir(), 'store');
  await cp(sourceDir, dir, { recursive: true });
  return dir;
}

/** The precision an English export loses, in metric: half a unit of the 4th decimal in English, then stored rounded. */
function tolerance(key: string): number {
  const [, variable] = /^(.+) \(/.exec(key) ?? [];
  const unit = findReservoirVariable(variable ?? '')?.spec.unit ?? findStationVariable(variable ?? '')?.unit;
  return unit ? 0.5e-4 / units[unit].factor + 0.5e-4 + 1e-9 : 0;
}

function expectClose(actual: WireRecord[], expected: WireRecord[]): void {
  expect(actual.map((r) => [r.RES_NAME ?? r.STA_NAME, r.start_date])).toEqual(expected.map((r) => [r.RES_NAME ?? r.STA_NAME, r.start_date]));
  actual.forEach((record, i) => {
    for (const [key, value] of Object.entries(expected[i]!)) {
      if (typeof value === 'number')
        expect(Math.abs((record[key] as number) - value), `${key} of ${JSON.stringify(record)}`).toBeLessThanOrEqual(tolerance(key));
      else expect(record[key]).toEqual(value);
    }
  });
}

describe('ingest', () => {
  const range = smallStoreRange;

  for (const format of ['json', 'csv'] as const) {
    for (const system of ['metric', 'english'] as const) {
      it(`loads ${format.toUpperCase()} exported in ${system} units into an empty store that answers the same records`, async () => {
        const names = source.manifest.reservoirs.names;
        const stations = source.manifest.stations.names;
        const common = { output_format: format, units: system, start_date: range.start, end_date: range.end };
        const files = [
          // with the day flags, which ingest reads back (issue 13)
          textSource(
            `reservoirs.${format}`,
            await exportText('/timeseries/daily/reservoirs/daterange', { ...common, RES_NAMES: names.join(','), also_return: 'qflag,status' }),
          ),
          textSource(
            `stations.${format}`,
            await exportText('/timeseries/stations/daterange', { ...common, STA_NAMES: stations.join(','), also_return: 'status' }),
          ),
          textSource(`reservoir-metadata.${format}`, await exportText('/metadata/reservoirs', { output_format: format, RES_NAMES: names.join(',') })),
          textSource(`station-metadata.${format}`, await exportText('/metadata/stations', { output_format: format, STA_NAMES: stations.join(',') })),
        ];
        const dir = await tempDir();
        const summary = await ingest(dir, files);
        expect(summary.problems).toEqual([]);
        expect(summary).toMatchObject({ filesApplied: 4, replaced: 0, rejected: 0, metadata: names.length + stations.length });
        const copy = await openStore(dir);
        expect(copy.reservoirMetadata(names)).toEqual(source.reservoirMetadata(names));
        expect(copy.stationMetadata(stations)).toEqual(source.stationMetadata(stations));
        expect(copy.listDatasets()).toEqual(source.listDatasets());
        expect(copy.listStationVariables()).toEqual(source.listStationVariables());
        expect(copy.listDates('lem', 'Tw')).toEqual(source.listDates('lem', 'Tw'));
        for (const units of ['metric', 'english'] as const) {
          const reservoirs = await copy.reservoirTimeseries({ names, ...range, units, alsoReturn: ['qflag', 'status'] });
          const original = await source.reservoirTimeseries({ names, ...range, units, alsoReturn: ['qflag', 'status'] });
          const stationRecords = await copy.stationTimeseries({ names: stations, ...range, units, alsoReturn: ['status'] });
          const stationOriginal = await source.stationTimeseries({ names: stations, ...range, units, alsoReturn: ['status'] });
          if (system === 'metric') {
            expect(reservoirs).toEqual(original);
            expect(stationRecords).toEqual(stationOriginal);
          } else {
            // English exports are rounded to 4 decimals in English units: compare within what that rounding loses
            expectClose(reservoirs, original);
            expectClose(stationRecords, stationOriginal);
          }
        }
        expect(await copy.reservoirTimeseriesOnDate({ date: '2021-01-01', datasets: ['nete-volume-calcs'] })).toHaveLength(names.length);
      });
    }
  }

  it('replaces exactly the overlapping days of a revision and rewrites only the touched partitions', async () => {
    const dir = await copyOfSource();
    const before = await openStore(dir);
    const name = before.manifest.reservoirs.names[1]!;
    const old = await before.reservoirTimeseries({ names: before.manifest.reservoirs.names, ...range });
    const revised = old.filter((r) => r.RES_NAME === name && r.start_date! >= '2020-12-30' && r.start_date! <= '2021-01-02');
    // a provisional revision of NetE only (the other variables are not in the file and must be kept)
    const revision = revised.map((r) => ({ RES_NAME: name, start_date: r.start_date, end_date: r.end_date, 'NetE (mm)': (r['NetE (mm)'] as number) + 100 }));
    const summary = await ingest(dir, [textSource('revision.json', JSON.stringify(revision))]);
    expect(summary).toMatchObject({ records: 4, added: 0, replaced: 4, rejected: 0, partitions: 2 });
    const after = await openStore(dir);
    const now = await after.reservoirTimeseries({ names: before.manifest.reservoirs.names, ...range });
    const changed = (r: WireRecord) => r.RES_NAME === name && r.start_date! >= '2020-12-30' && r.start_date! <= '2021-01-02';
    expect(now.filter((r) => !changed(r))).toEqual(old.filter((r) => !changed(r)));
    expect(now.filter(changed)).toEqual(revised.map((r) => ({ ...r, 'NetE (mm)': Math.round(((r['NetE (mm)'] as number) + 100) * 1e4) / 1e4 })));
    // untouched partitions: same file, same checksum; the two nete-volume-calcs years are new files
    const files = (m: typeof before.manifest) => [
      ...Object.entries(m.datasets).flatMap(([d, e]) =>
        e.partitions.flatMap((p) => p.files.map((f) => [`${d}/${p.year}/${f.start}/${f.first}`, f.path, f.sha256] as const)),
      ),
      ...Object.entries(m.stations.partitions).map(([s, p]) => [s, p.path, p.sha256] as const),
      ['reservoir metadata', m.reservoirs.metadata!.path, m.reservoirs.metadata!.sha256] as const,
    ];
    const beforeFiles = new Map(files(before.manifest).map(([k, ...rest]) => [k, rest]));
    const afterFiles = new Map(files(after.manifest).map(([k, ...rest]) => [k, rest]));
    for (const [key, entry] of beforeFiles) {
      if (key.startsWith('nete-volume-calcs/')) expect(afterFiles.get(key)![0], key).not.toBe(entry[0]);
      else expect(afterFiles.get(key), key).toEqual(entry);
    }
    // the old snapshot is still readable by a reader that opened it
    expect(await before.reservoirTimeseries({ names: before.manifest.reservoirs.names, ...range })).toEqual(old);
  });

  it('adds new days and replaces overlapping ones from a long CSV of metric values', async () => {
    const dir = await copyOfSource();
    const store = await openStore(dir);
    const [name] = store.manifest.reservoirs.names;
    const [station] = store.manifest.stations.names;
    const csv = [
      'name,dataset,variable,date,value',
      `${name},nete-volume-calcs,NetE,2021-01-05,1.5`,
      `${name},nete-volume-calcs,NetE,2021-01-06,2.5`,
      `${name},rtma,pr,2021-01-06,`,
      `"${station}",stations,ATemp,2021-01-07,-3.25`,
    ].join('\n');
    const summary = await ingest(dir, [textSource('long.csv', csv)]);
    expect(summary.problems).toEqual([]);
    expect(summary).toMatchObject({ records: 4, added: 3, replaced: 1 });
    const after = await openStore(dir);
    const records = await after.reservoirTimeseries({
      names: [name!],
      datasets: ['nete-volume-calcs', 'rtma'],
      variables: ['NetE', 'E_volume', 'pr'],
      start: '2021-01-05',
      end: '2021-01-06',
    });
    const previous = await store.reservoirTimeseries({
      names: [name!],
      datasets: ['nete-volume-calcs'],
      variables: ['E_volume'],
      start: '2021-01-05',
      end: '2021-01-05',
    });
    expect(records).toEqual([
      {
        RES_NAME: name,
        start_date: '2021-01-05',
        end_date: '2021-01-05',
        'NetE (mm)': 1.5,
        'E_volume (m3)': previous[0]!['E_volume (m3)'],
        'pr (mm)': (await store.reservoirTimeseries({ names: [name!], variables: ['pr'], datasets: ['rtma'], start: '2021-01-05', end: '2021-01-05' }))[0]![
          'pr (mm)'
        ],
      },
      { RES_NAME: name, start_date: '2021-01-06', end_date: '2021-01-06', 'NetE (mm)': 2.5, 'E_volume (m3)': null, 'pr (mm)': null },
    ]);
    expect(await after.stationTimeseries({ names: [station!], variables: ['ATemp'], start: '2021-01-07', end: '2021-01-07' })).toEqual([
      { STA_NAME: station, start_date: '2021-01-07', end_date: '2021-01-07', 'ATemp (degC)': -3.25 },
    ]);
    expect(after.listDates('nete-volume-calcs', 'NetE')).toEqual([{ start_date: '2020-12-25', end_date: '2021-01-06' }]);
  });

  it('rejects bad rows with file, line and reason, and applies nothing of that file', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const before = (await openStore(dir)).manifest.snapshot;
    const json = `[
  {"RES_NAME": "ALPHA LAKE", "start_date": "2020-12-30", "end_date": "2020-12-30", "NetE (mm)": 9},
  {"RES_NAME": "ALPHA LAKE", "start_date": "2020-12-31", "NetX (mm)": 1},
  {"RES_NAME": "ALPHA LAKE", "start_date": "2021-02-30", "NetE (mm)": 1},
  {"RES_NAME": "ALPHA LAKE", "start_date": "2021-01-01", "NetE (mm)": "lots"},
  {"RES_NAME": "ALPHA LAKE", "start_date": "2021-01-01", "NetE (ft)": 1},
  {"RES_NAME": "GAMMA POND", "start_date": "2021-01-01", "NetE (mm)": 1},
  {"STA_NAME": "ALPHA_STATION", "start_date": "2021-01-01", "ATemp": 1},
  {"RES_NAME": "ALPHA LAKE", "start_date": "2021-01-01", "NetE (mm)": "1e400"},
  {"RES_NAME": "ALPHA LAKE", "start_date": "0050-01-01", "NetE (mm)": 1},
  {"RES_NAME": "ALPHA LAKE", "start_date": "9999-12-31", "NetE (mm)": 1}
]`;
    const csv =
      'RES_NAME,start_date,end_date,NetE (in)\nALPHA LAKE,2020-12-30,2020-12-30,1\nALPHA LAKE,20201231,20201231,1\nALPHA LAKE,2021-01-01,2021-01-01,1,2\nALPHA LAKE,2021-01-02,2021-01-02,1.7e308\n';
    const badHeader = 'RES_NAME,start_date,end_date,NetE (m3)\nALPHA LAKE,2020-12-30,2020-12-30,1\n';
    const summary = await ingest(dir, [
      textSource('bad.json', json),
      textSource('bad.csv', csv),
      textSource('header.csv', badHeader),
      textSource('broken.json', '[{"RES_NAME": "ALPHA LAKE",\n "start_date": '),
    ]);
    expect(summary.snapshot).toBeNull();
    expect(summary.filesApplied).toBe(0);
    expect((await openStore(dir)).manifest.snapshot).toBe(before);
    const problems = summary.problems.map((p) => `${p.file}:${p.line}: ${p.reason}`);
    expect(problems).toEqual([
      expect.stringMatching(/^bad\.json:3: unknown reservoir variable "NetX" in column "NetX \(mm\)"/),
      expect.stringMatching(/^bad\.json:4: bad date: .*2021-02-30 does not exist/),
      expect.stringMatching(/^bad\.json:5: non-numeric value "lots" in column "NetE \(mm\)"/),
      expect.stringMatching(/^bad\.json:6: unit label "ft" in column "NetE \(ft\)" does not match variable NetE \(mm, or in for English units\)/),
      expect.stringMatching(/^bad\.json:7: unknown reservoir "GAMMA POND": not in the store/),
      expect.stringMatching(/^bad\.json:8: column "ATemp" has no unit label; expected "ATemp \(degC\)" or "ATemp \(degF\)"/),
      expect.stringMatching(/^bad\.json:9: value "1e400" in column "NetE \(mm\)" is beyond the range of a number/),
      expect.stringMatching(/^bad\.json:10: bad date: start_date "0050-01-01" is outside the years 1900-2100/),
      expect.stringMatching(/^bad\.json:11: bad date: start_date "9999-12-31" is outside the years 1900-2100/),
      expect.stringMatching(/^bad\.csv:3: bad date: start_date must be a date in the form YYYY-MM-DD, got "20201231"/),
      expect.stringMatching(/^bad\.csv:4: 5 fields where the header has 4/),
      expect.stringMatching(/^bad\.csv:5: value "1.7e308" in column "NetE \(in\)" is beyond the range of a number/),
      expect.stringMatching(/^header\.csv:1: unit label "m3" in column "NetE \(m3\)" does not match variable NetE .*; the file is not applied/),
      expect.stringMatching(/^broken\.json:1: malformed JSON: .*ends inside an object/),
    ]);
    expect(summary.rejected).toBe(14);
  });

  it('applies the good rows of a file with bad ones when skipBadRows is set', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const csv = 'RES_NAME,start_date,end_date,NetE (in)\nALPHA LAKE,2020-12-30,2020-12-30,1\nALPHA LAKE,2020-12-31,2020-12-31,x\n';
    const summary = await ingest(dir, [textSource('mixed.csv', csv)], { skipBadRows: true });
    expect(summary).toMatchObject({ filesApplied: 1, records: 1, replaced: 1, rejected: 1 });
    const store = await openStore(dir);
    const records = await store.reservoirTimeseries({
      names: ['ALPHA LAKE'],
      datasets: ['nete-volume-calcs'],
      variables: ['NetE', 'E_volume'],
      start: '2020-12-30',
      end: '2020-12-31',
    });
    expect(records.map((r) => [r['NetE (mm)'], r['E_volume (m3)']])).toEqual([
      [25.4, 1000],
      [1.1, 1100],
    ]);
  });

  it('makes an infinite long-CSV value one bad row with its file and line, applying the good rows with skipBadRows', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const csv = 'name,dataset,variable,date,value\nALPHA LAKE,nete-volume-calcs,NetE,2020-12-30,1.5\nALPHA LAKE,nete-volume-calcs,NetE,2020-12-31,1e400\n';
    const strict = await ingest(dir, [textSource('long.csv', csv)]);
    expect(strict.problems.map((p) => `${p.file}:${p.line}: ${p.reason}`)).toEqual(['long.csv:3: value "1e400" is beyond the range of a number']);
    const skipping = await ingest(dir, [textSource('long.csv', csv), textSource('other.csv', csv.replace('1e400', '-1e999'))], { skipBadRows: true });
    expect(skipping).toMatchObject({ filesApplied: 2, records: 2, rejected: 2 });
    const store = await openStore(dir);
    const day = { names: ['ALPHA LAKE'], datasets: ['nete-volume-calcs' as const], variables: ['NetE'], start: '2020-12-30', end: '2020-12-30' };
    expect((await store.reservoirTimeseries(day))[0]!['NetE (mm)']).toBe(1.5);
  });

  it('refuses names the API could never ask for (a comma, white space at an end), with the reason', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const metadata = 'RES_NAME,STATE,LAT,LON\n"LAKE A, NORTH",NV,36,-114\n" LAKE B",NV,36,-114\nLAKE C ,NV,36,-114\nLAKE D,NV,36,1e400\n';
    const summary = await ingest(dir, [textSource('names.csv', metadata)]);
    expect(summary.problems.map((p) => `${p.line}: ${p.reason}`)).toEqual([
      '2: RES_NAME "LAKE A, NORTH" holds a comma, which the API\'s RES_NAMES lists cannot carry',
      '3: RES_NAME " LAKE B" begins or ends with white space, which the API trims from names asked',
      '4: RES_NAME "LAKE C " begins or ends with white space, which the API trims from names asked',
      '5: attribute LON value "1e400" is beyond the range of a number',
    ]);
    const stations = 'STA_NAME,LAT,LON\n"A,B_STATION",40,-105\n';
    expect((await ingest(dir, [textSource('stations.csv', stations)])).problems[0]?.reason).toMatch(/holds a comma, which the API's STA_NAMES lists/);
  });

  it('stores a station whose name is longer than a file name may be, and answers it', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const names = ['観測所'.repeat(40), `${'観測所'.repeat(40)}X`]; // 120 CJK characters each: 1,080 bytes percent-encoded
    const metadata = `STA_NAME,LAT,LON\n${names.map((n) => `${n},40,-105`).join('\n')}\n`;
    const values = `name,dataset,variable,date,value\n${names.map((n, i) => `${n},stations,ATemp,2021-01-01,${i + 1}`).join('\n')}\n`;
    const summary = await ingest(dir, [textSource('meta.csv', metadata), textSource('long.csv', values)]);
    expect(summary.problems).toEqual([]);
    const store = await openStore(dir);
    const answer = await store.stationTimeseries({ names, variables: ['ATemp'], start: '2021-01-01', end: '2021-01-01' });
    expect(answer.map((r) => [r.STA_NAME, r['ATemp (degC)']])).toEqual([
      [names[0], 1],
      [names[1], 2], // names sharing their first 60 characters keep folders of their own
    ]);
  });

  it('accepts a new reservoir only with its metadata', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const rows = JSON.stringify([{ RES_NAME: 'GAMMA POND', start_date: '2021-01-01', end_date: '2021-01-01', 'NetE (mm)': 1.25 }]);
    const without = await ingest(dir, [textSource('gamma.json', rows)]);
    expect(without.problems[0]?.reason).toMatch(/unknown reservoir "GAMMA POND"/);
    const metadata = 'RES_NAME,STATE,LAT,LON,Shape_Area\nGAMMA POND,NV,36.5,-114.2,12345\n';
    const withMetadata = await ingest(dir, [textSource('gamma.json', rows), textSource('gamma-metadata.csv', metadata)]);
    expect(withMetadata).toMatchObject({ rejected: 0, added: 1, metadata: 1 });
    const store = await openStore(dir);
    expect(await store.listReservoirNames()).toEqual(['ALPHA LAKE', 'BETA RESERVOIR', 'GAMMA POND']);
    expect(store.reservoirMetadata(['GAMMA POND'])).toEqual([{ RES_NAME: 'GAMMA POND', STATE: 'NV', LAT: 36.5, LON: -114.2, Shape_Area: 12345, qflag: null }]);
    expect(
      await store.reservoirTimeseries({
        names: ['ALPHA LAKE', 'GAMMA POND'],
        datasets: ['nete-volume-calcs'],
        variables: ['NetE'],
        start: '2021-01-01',
        end: '2021-01-01',
      }),
    ).toEqual([
      { RES_NAME: 'ALPHA LAKE', start_date: '2021-01-01', end_date: '2021-01-01', 'NetE (mm)': 1.2 },
      { RES_NAME: 'GAMMA POND', start_date: '2021-01-01', end_date: '2021-01-01', 'NetE (mm)': 1.25 },
    ]);
  });

  it('reads back random records written as JSON or CSV in any unit system', async () => {
    const names = ['ALPHA LAKE', 'BETA RESERVOIR'];
    const value = fc.option(
      fc.integer({ min: -9_999_999, max: 9_999_999 }).map((n) => n / 1e4),
      { nil: null },
    );
    const record = fc.record({ name: fc.constantFrom(...names), day: fc.integer({ min: 0, max: 40 }), nete: value, evap: value });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(record, { selector: (r) => `${r.name}/${r.day}`, minLength: 1, maxLength: 30 }),
        fc.constantFrom('json', 'csv'),
        async (drawn, format) => {
          const records: WireRecord[] = drawn
            .map((r) => {
              const date = new Date(Date.UTC(2020, 11, 10 + r.day)).toISOString().slice(0, 10);
              return { RES_NAME: r.name, start_date: date, end_date: date, 'NetE (mm)': r.nete, 'E_volume (m3)': r.evap };
            })
            .sort((a, b) => `${a.RES_NAME}/${a.start_date}`.localeCompare(`${b.RES_NAME}/${b.start_date}`));
          const columns = ['RES_NAME', 'start_date', 'end_date', 'NetE (mm)', 'E_volume (m3)'];
          const text = format === 'json' ? JSON.stringify(records, null, 1) : recordsToCsv(records, columns);
          const dir = await tempDir();
          const metadata = textSource('metadata.json', JSON.stringify(names.map((n) => ({ RES_NAME: n, LAT: 40, LON: -105 }))));
          const summary = await ingest(dir, [textSource(`records.${format}`, text), metadata]);
          expect(summary.problems).toEqual([]);
          const store = await openStore(dir);
          const back = await store.reservoirTimeseries({
            names,
            datasets: ['nete-volume-calcs'],
            variables: ['NetE', 'E_volume'],
            start: '2020-12-01',
            end: '2021-02-01',
          });
          expect(back).toEqual(records);
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe('an ingest of JSON', () => {
  it('makes a record with a repeated key a bad row, with its line', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const json =
      '[\n{"RES_NAME": "ALPHA LAKE", "start_date": "2020-12-30", "NetE (mm)": 1},\n{"RES_NAME": "ALPHA LAKE", "start_date": "2020-12-31", "NetE (mm)": 1, "NetE (mm)": 2}\n]';
    const summary = await ingest(dir, [textSource('twice.json', json)]);
    expect(summary.problems.map((p) => `${p.file}:${p.line}: ${p.reason}`)).toEqual(['twice.json:3: key "NetE (mm)" appears twice in the record']);
    expect(summary.filesApplied).toBe(0);
  });
});

describe('an ingest of CSV', () => {
  it('reports a bad row after a quoted CRLF on its own line', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const csv = 'RES_NAME,start_date,end_date,NetE (mm),note\r\nALPHA LAKE,2020-12-30,2020-12-30,1,"two\r\nlines"\r\nALPHA LAKE,20201231,20201231,1,x\r\n';
    const summary = await ingest(dir, [textSource('crlf.csv', csv)]);
    expect(summary.problems.map((p) => `${p.file}:${p.line}`)).toEqual(['crlf.csv:4']); // csv-parse said 5
  });
});
