// Every station on one date, made from the day's gathered values, is the same answer as every station's rows over that
// one day read station by station (the range path), in records, JSON and CSV, asked once or again.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { stationVariableNames } from '../../../lib/catalogue.js';
import type { RecordStream } from '../../../lib/format/stream.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';

let store: EvapStore;
let stations: string[];
beforeAll(async () => {
  store = await openStore(); // the demo store: 27 stations, each with its own dates and variables
  stations = await store.listStationNames();
});

async function all(stream: RecordStream): Promise<[string, string, string]> {
  let [json, csv] = ['', ''];
  for await (const chunk of stream.json()) json += chunk;
  for await (const chunk of stream.csv()) csv += chunk;
  return [JSON.stringify(await stream.records()), json, csv];
}

const day2010 = Date.UTC(2010, 0, 1) / 864e5;
const date = (offset: number) => new Date((day2010 + offset) * 864e5).toISOString().slice(0, 10);

describe('stations on one date', () => {
  it('answer what the range of that one day gives for every station, gaps, units and flags included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(stationVariableNames, { minLength: 1, maxLength: 10 }),
        fc.constantFrom('metric', 'english' as const),
        fc.subarray(['status', 'STATION_TYPE', 'qflag']),
        fc.integer({ min: 0, max: 4400 }),
        async (variables, units, alsoReturn, offset) => {
          const onDate = { variables, units, alsoReturn, date: date(offset) };
          const range = { names: stations, variables, units, alsoReturn, start: date(offset), end: date(offset) };
          const expected = await all(store.streamStationTimeseries(range));
          expect(await all(store.streamStationTimeseriesOnDate(onDate))).toEqual(expected);
          expect(await all(store.streamStationTimeseriesOnDate(onDate))).toEqual(expected); // from the kept day
        },
      ),
      { numRuns: 25 },
    );
    expect(stations.length).toBeGreaterThan(20);
  });
});
