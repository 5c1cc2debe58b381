// Checking query options: defaults, duplicates and empties dropped, unknown values refused with the parameter named.
// Query plans against a small generated store: names, columns, days and attributes checked with plain computations,
// date-fns for the days, and the records the store then emits for the header.
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { differenceInCalendarDays, parseISO } from 'date-fns';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { reservoirVariables, stationVariableNames } from '../../../lib/catalogue.js';
import { InvalidParameterError, NotFoundError } from '../../../lib/errors.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import {
  estimateReadRows,
  planReservoirDate,
  planReservoirRange,
  planStationDate,
  planStationRange,
  resolveAttributes,
  resolveDatasets,
  resolveNames,
  resolveReservoirVariables,
  resolveUnits,
  selectReservoirs,
  selectStations,
} from '../../../lib/query/plan.js';
import { heldBy, type Snapshot } from '../../../lib/store/open-snapshot.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { day, daysFrom, tempDir, tinyReservoirs, tinyStations, writeSmallStore } from '../../helpers.js';

let dir: string;
let store: EvapStore;
let snapshot: Snapshot;
let reservoirs: string[];
let stations: string[];
beforeAll(async () => {
  dir = await tempDir();
  await writeSmallStore(dir); // 4 reservoirs, 3 stations, 2020-12-25..2021-01-05
  store = await openStore(dir);
  snapshot = Reflect.get(store, 'snapshot') as Snapshot; // the snapshot the store's own queries plan against
  reservoirs = store.manifest.reservoirs.names;
  stations = store.manifest.stations.names;
});

const epochDay = (date: string) => differenceInCalendarDays(parseISO(`${date}T00:00:00Z`), parseISO('1970-01-01T00:00:00Z'));
const dateIn = fc.integer({ min: 0, max: 11 }).map((i) => new Date(Date.UTC(2020, 11, 25 + i)).toISOString().slice(0, 10)); // the days held

function refusal(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('not refused');
}

describe('selectReservoirs and selectStations', () => {
  it('take the asked names sorted and unique, or every name for a query on one date', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 8 }), (picks) => {
        const asked = picks.map((i) => reservoirs[i]!);
        const expected = [...new Set(asked)].sort();
        return JSON.stringify(selectReservoirs(snapshot, { names: asked }).names) === JSON.stringify(expected);
      }),
    );
    expect(selectReservoirs(snapshot, { names: [reservoirs[0]!] }, true).names).toEqual(reservoirs);
    expect(selectStations(snapshot, { names: [stations[2]!, stations[0]!, stations[2]!] }).names).toEqual([stations[0], stations[2]]);
  });

  it('keys the columns in the order asked, with the unit of the system asked', () => {
    const metric = selectReservoirs(snapshot, { names: [reservoirs[0]!], variables: ['E_volume', 'NetE'], datasets: ['nete-volume-calcs'] });
    expect(metric.columns.map((c) => c.key)).toEqual(['E_volume (m3)', 'NetE (mm)']);
    const english = selectReservoirs(snapshot, { names: [reservoirs[0]!], variables: ['NetE', 'E_volume'], datasets: ['nete-volume-calcs'], units: 'english' });
    expect(english.columns.map((c) => c.key)).toEqual(['NetE (in)', 'E_volume (acre-ft)']);
    expect(english.columns.map((c) => c.factor)).toEqual([1 / 25.4, 1 / (43560 * 0.3048 ** 3)].map((f) => expect.closeTo(f, 12)));
  });

  it('give a station query the variables its stations measure, in catalogue order, by default', () => {
    const held = snapshot.stationVariablesHeld;
    const [a, b] = [stations[0]!, stations[2]!];
    const union = stationVariableNames.filter((v) => held.get(a)!.includes(v) || held.get(b)!.includes(v));
    expect(selectStations(snapshot, { names: [b, a] }).columns.map((c) => c.name)).toEqual(union);
    expect(selectStations(snapshot, { names: [a] }, true).columns.map((c) => c.name)).toEqual(
      stationVariableNames.filter((v) => stations.some((s) => held.get(s)!.includes(v))),
    );
  });

  it('report units first, then names, then datasets, then variables', () => {
    const units = refusal(() => selectReservoirs(snapshot, { units: 'imperial' as 'metric', names: ['NOWHERE'], datasets: ['nope'], variables: ['nope'] }));
    expect([units instanceof InvalidParameterError, (units as InvalidParameterError).parameter]).toEqual([true, 'units']);
    const names = refusal(() => selectReservoirs(snapshot, { names: ['NOWHERE'], datasets: ['nope'], variables: ['nope'] }));
    expect([names instanceof NotFoundError, (names as NotFoundError).missing]).toEqual([true, ['NOWHERE']]);
    const datasets = refusal(() => selectReservoirs(snapshot, { names: [reservoirs[0]!], datasets: ['nope'], variables: ['nope'] }));
    const variables = refusal(() => selectReservoirs(snapshot, { names: [reservoirs[0]!], datasets: ['lem'], variables: ['nope'] }));
    expect([(datasets as InvalidParameterError).parameter, (variables as InvalidParameterError).parameter]).toEqual(['datasets', 'variables']);
  });

  it('know the last day held: the latest of the datasets used (reservoirs), of the names (stations)', async () => {
    const dir = await tempDir();
    const writer = createStoreWriter(dir);
    await writer.writeReservoirMetadata(tinyReservoirs);
    await writer.writeStationMetadata(tinyStations);
    // nete-volume-calcs ends on 2021-01-02, lem on 2021-01-04, rtma on 2020-12-31
    for (const [dataset, variable, last] of [
      ['nete-volume-calcs', 'NetE', '2021-01-02'],
      ['lem', 'Tw', '2021-01-04'],
      ['rtma', 'pr', '2020-12-31'],
    ] as const) {
      for (const year of [2020, 2021]) {
        const days = Int32Array.from({ length: 10 }, (_, i) => day('2020-12-28') + i).filter(
          (d) => d <= day(last) && new Date(d * 864e5).getUTCFullYear() === year,
        );
        await writer.writeReservoirPartition(dataset, year, {
          names: Array.from(days, () => 'ALPHA LAKE'),
          days,
          values: { [variable]: Float64Array.from(days) },
        });
      }
    }
    await writer.writeStationPartition('ALPHA_STATION', { days: daysFrom('2020-12-20', 5), values: { ATemp: new Float64Array(5) } });
    await writer.commit();
    const staggered = Reflect.get(await openStore(dir), 'snapshot') as Snapshot;
    const latestOf = (datasets: string[], variables: string[]) => selectReservoirs(staggered, { names: ['ALPHA LAKE'], datasets, variables }).latest();
    expect([
      latestOf(['nete-volume-calcs', 'lem'], ['NetE', 'Tw']),
      latestOf(['rtma', 'nete-volume-calcs'], ['pr', 'NetE']),
      latestOf(['rtma'], ['pr']),
    ]).toEqual([day('2021-01-04'), day('2021-01-02'), day('2020-12-31')]);
    expect(selectStations(staggered, { names: ['ALPHA_STATION'] }).latest()).toBe(day('2020-12-24'));
    expect(planReservoirRange(staggered, { names: ['ALPHA LAKE'], datasets: ['rtma'], variables: ['pr'], start: '2020-12-29', end: 'latest' }).endDay).toBe(
      day('2020-12-31'),
    );
  });
});

describe('planReservoirRange, planReservoirDate, planStationRange, planStationDate', () => {
  it('turn dates into the epoch days date-fns counts; a date query is one day', () => {
    fc.assert(
      fc.property(dateIn, dateIn, (a, b) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        const range = planReservoirRange(snapshot, { names: [reservoirs[1]!], start, end });
        const station = planStationRange(snapshot, { names: [stations[0]!], start, end });
        const onDate = planReservoirDate(snapshot, { date: a });
        const stationOnDate = planStationDate(snapshot, { date: b });
        return (
          range.startDay === epochDay(start) &&
          range.endDay === epochDay(end) &&
          station.startDay === epochDay(start) &&
          station.endDay === epochDay(end) &&
          onDate.startDay === epochDay(a) &&
          onDate.endDay === epochDay(a) &&
          stationOnDate.startDay === epochDay(b) &&
          stationOnDate.endDay === epochDay(b)
        );
      }),
    );
    expect(() => planReservoirRange(snapshot, { names: [reservoirs[0]!], start: '2021-01-02', end: '2021-01-01' })).toThrow(InvalidParameterError);
  });

  it('give the header of the records the store emits, and attach each name its metadata attributes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(reservoirs, { minLength: 1 }),
        fc.subarray(
          reservoirVariables.filter((v) => v.dataset === 'nete-volume-calcs' || v.dataset === 'lem').map((v) => v.name),
          { minLength: 1, maxLength: 4 },
        ),
        fc.subarray(['qflag', 'status', 'STATE', 'LAT', 'CAPACITY_M3']),
        fc.constantFrom('metric', 'english'),
        async (names, variables, alsoReturn, units) => {
          const query = { names, variables, alsoReturn, units, datasets: ['nete-volume-calcs', 'lem'], start: '2020-12-30', end: '2021-01-01' };
          const plan = planReservoirRange(snapshot, query);
          const records = await store.reservoirTimeseries(query);
          const rows = new Map(store.metadataRows('reservoirs').map((r) => [r.RES_NAME, r]));
          const metadataOnly = alsoReturn.filter((a) => a !== 'qflag' && a !== 'status');
          return (
            records.length === names.length * 3 &&
            records.every((r) => JSON.stringify(Object.keys(r)) === JSON.stringify(plan.header)) &&
            JSON.stringify(plan.flags) === JSON.stringify(['qflag', 'status'].filter((f) => alsoReturn.includes(f))) &&
            names.every((n) => metadataOnly.every((a) => plan.attach(n)[a] === (rows.get(n)![a] ?? null)))
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it('refuse an attribute neither the metadata nor the day flags hold', () => {
    const error = refusal(() => planStationRange(snapshot, { names: [stations[0]!], alsoReturn: ['qflag', 'CAPACITY_M3'] }));
    expect((error as InvalidParameterError).parameter).toBe('also_return');
    expect(planStationDate(snapshot, { date: '2021-01-01', alsoReturn: ['status', 'STATION_TYPE'] }).flags).toEqual(['status']);
  });
});

describe('heldBy', () => {
  it('is the union of what the stations measure, in catalogue order', () => {
    const measured = fc.subarray(stationVariableNames); // a station's list is in catalogue order, as the store keeps it
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), measured, { minKeys: 1 }),
        fc.array(fc.string({ maxLength: 4 }), { maxLength: 5 }),
        (held, extra) => {
          const map = new Map(Object.entries(held));
          const names = [...Object.keys(held).slice(0, 3), ...extra];
          const union: string[] = [];
          for (const v of stationVariableNames) if (names.some((n) => map.get(n)?.includes(v))) union.push(v);
          return JSON.stringify(heldBy(map, names)) === JSON.stringify(union);
        },
      ),
    );
  });
});

describe('estimateReadRows', () => {
  // the rows DuckDB counts in the store's files: every file of the years the days touch, of the datasets asked, for the names asked
  it('is the count of stored rows of the asked names in the partitions the days touch, as DuckDB counts them', async () => {
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const count = async (files: string[], where: string) =>
      files.length === 0
        ? 0
        : Number(
            (
              await duck.runAndReadAll(`select count(*)::int as n from read_parquet([${files.map((f) => `'${join(dir, f)}'`).join(', ')}]) where ${where}`)
            ).getRows()[0]![0],
          );
    const inList = (key: string, names: readonly string[]) => `${key} in (${names.map((n) => `'${n.replaceAll("'", "''")}'`).join(', ')})`;
    const datasets = ['rtma', 'res', 'lem', 'nete-volume-calcs'] as const;
    await fc.assert(
      fc.asyncProperty(fc.subarray([...datasets], { minLength: 1 }), fc.subarray(reservoirs, { minLength: 1 }), dateIn, dateIn, async (asked, names, a, b) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        const yearFiles = (from: string, to: string) =>
          asked.flatMap((d) =>
            (store.manifest.datasets[d]?.partitions ?? [])
              .filter((p) => p.year >= Number(from.slice(0, 4)) && p.year <= Number(to.slice(0, 4)))
              .flatMap((p) => p.files.map((f) => f.path)),
          );
        const onDate = planReservoirDate(snapshot, { date: start, datasets: asked });
        expect(estimateReadRows(snapshot, onDate)).toBe(await count(yearFiles(start, start), 'true'));
        const range = planReservoirRange(snapshot, { names, start, end, datasets: asked });
        expect(estimateReadRows(snapshot, range)).toBe(await count(yearFiles(start, end), inList('RES_NAME', names)));
      }),
      { numRuns: 25 },
    );
    const some = stations.slice(0, 2);
    const files = some.map((n) => store.manifest.stations.partitions[n]!.path);
    expect(estimateReadRows(snapshot, planStationRange(snapshot, { names: some, ...{ start: '2020-12-25', end: '2020-12-26' } }))).toBe(
      await count(files, 'true'),
    );
    duck.closeSync();
  });
});

describe('resolveUnits', () => {
  it('defaults to metric, takes english and refuses anything else', () => {
    expect(resolveUnits(undefined)).toBe('metric');
    expect(resolveUnits('english')).toBe('english');
    expect(() => resolveUnits('imperial')).toThrow(InvalidParameterError);
    expect(() => resolveUnits('Metric')).toThrow(/units must be one of metric, english; got "Metric"/);
  });

  // the public service takes the two words in lower case only (units=Metric is a 422 there): so does the library
  const words = ['metric', 'english'];
  const anyString = fc.oneof(
    fc.string(),
    fc.constantFrom(...words).chain((w) => fc.mixedCase(fc.constant(w))),
    fc.constantFrom(' metric', 'english ', 'imperial', ''),
  );

  it('takes exactly the two words and refuses any other string, naming units and both words', () => {
    fc.assert(
      fc.property(anyString, (value) => {
        if (words.includes(value)) {
          expect(resolveUnits(value)).toBe(value);
          return;
        }
        const error = (() => {
          try {
            resolveUnits(value);
          } catch (e) {
            return e;
          }
        })();
        expect(error).toBeInstanceOf(InvalidParameterError);
        expect((error as InvalidParameterError).parameter).toBe('units');
        expect((error as InvalidParameterError).message).toMatch(/metric, english/);
        expect((error as InvalidParameterError).value).toBe(value);
      }),
    );
  });

  it('is checked at the public boundary: a store query takes any string as units and refuses all but the two words', async () => {
    const store = await openStore(); // the demo store
    await fc.assert(
      fc.asyncProperty(anyString, async (units) => {
        const asked = store.reservoirTimeseries({
          names: ['LAKE ALICE'],
          datasets: ['nete-volume-calcs'],
          variables: ['NetE'],
          start: '2020-01-01',
          end: '2020-01-01',
          units,
        });
        if (words.includes(units)) {
          const [record] = await asked;
          expect(Object.keys(record!)).toContain(units === 'metric' ? 'NetE (mm)' : 'NetE (in)');
        } else {
          await expect(asked).rejects.toMatchObject({ name: 'InvalidParameterError', parameter: 'units' });
        }
      }),
      { numRuns: 50 },
    );
  });
});

describe('resolveDatasets', () => {
  it('defaults to the four datasets and keeps the first of repeated ones', () => {
    expect(resolveDatasets(undefined)).toEqual(['rtma', 'res', 'lem', 'nete-volume-calcs']);
    expect(resolveDatasets(['lem', '', 'rtma', 'lem'])).toEqual(['lem', 'rtma']);
  });

  it('refuses an empty list and an unknown dataset', () => {
    expect(() => resolveDatasets([])).toThrow(/datasets is empty/);
    expect(() => resolveDatasets(['', ''])).toThrow(/datasets is empty/);
    expect(() => resolveDatasets(['rtma', 'nope'])).toThrow(/unknown dataset "nope"/);
  });
});

describe('resolveReservoirVariables', () => {
  it('defaults to every variable of the datasets asked, with its dataset and unit', () => {
    expect(resolveReservoirVariables(undefined, ['nete-volume-calcs'])).toEqual([
      { name: 'NetE', dataset: 'nete-volume-calcs', unit: 'mm' },
      { name: 'E_volume', dataset: 'nete-volume-calcs', unit: 'm3' },
      { name: 'NetE_volume', dataset: 'nete-volume-calcs', unit: 'm3' },
    ]);
  });

  it('refuses a variable of a dataset not asked for, naming that dataset', () => {
    expect(() => resolveReservoirVariables(['NetE'], ['rtma'])).toThrow(/variable NetE belongs to dataset nete-volume-calcs/);
    expect(() => resolveReservoirVariables(['NotAVariable'], ['rtma'])).toThrow(/unknown variable "NotAVariable"/);
    // the error carries the entry refused, not the whole list
    expect(() => resolveReservoirVariables(['pr', 'NetE'], ['rtma'])).toThrow(expect.objectContaining({ parameter: 'variables', value: 'NetE' }));
  });
});

describe('resolveNames', () => {
  const known = new Set(['ALPHA', 'BETA', 'GAMMA', 'DELTA']);

  it('gives the names asked, once each and sorted, whatever their order and repeats', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...known, '')).filter((l) => l.some((n) => n !== '')),
        (names) => {
          const resolved = resolveNames(names, [], known, 'RES_NAMES', 'reservoir');
          for (let i = 1; i < resolved.length; i++) expect(resolved[i - 1]! < resolved[i]!).toBe(true); // sorted, no repeats
          expect(new Set(resolved)).toEqual(new Set(names.filter((n) => n !== '')));
        },
      ),
    );
  });

  it('uses the fallback when no names are given', () => {
    expect(resolveNames(undefined, ['GAMMA', 'ALPHA'], known, 'RES_NAMES', 'reservoir')).toEqual(['ALPHA', 'GAMMA']);
  });

  it('names every unknown name once in a NotFoundError', () => {
    const error = (() => {
      try {
        resolveNames(['ALPHA', 'NOPE', 'ZED', 'NOPE'], [], known, 'RES_NAMES', 'reservoir');
      } catch (e) {
        return e as NotFoundError;
      }
    })();
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error!.message).toMatch(/^reservoir not found: "NOPE".*, "ZED"/);
    expect(error!.message.split('NOPE')).toHaveLength(2);
  });
});

describe('resolveAttributes', () => {
  it('drops empties and repeats, and refuses an attribute not available', () => {
    expect(resolveAttributes(undefined, ['STATE'])).toEqual([]);
    expect(resolveAttributes(['STATE', '', 'LAT', 'STATE'], ['LAT', 'STATE'])).toEqual(['STATE', 'LAT']);
    expect(() => resolveAttributes(['HEIGHT'], ['LAT', 'STATE'])).toThrow(/unknown metadata attribute "HEIGHT"/);
  });
});
