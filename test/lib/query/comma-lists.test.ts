// The library reads a list option given as one comma-separated string as the CLI and HTTP do, and names a station
// asked for as a reservoir.
import { describe, expect, it } from 'vitest';
import { InvalidParameterError, NotFoundError } from '../../../lib/errors.js';
import { demoStore, startTestServer } from '../../server/harness.js';

const store = await demoStore();
const range = { start: '2020-01-01', end: '2020-01-03' };

describe('comma-separated strings in the library', () => {
  it('answers names and variables given as "A,B" as the list [A, B]', async () => {
    const asText = await store.reservoirTimeseries({
      names: 'LAKE MEAD, LAKE POWELL' as unknown as string[],
      variables: 'NetE,E_volume' as unknown as string[],
      ...range,
    });
    const asList = await store.reservoirTimeseries({ names: ['LAKE MEAD', 'LAKE POWELL'], variables: ['NetE', 'E_volume'], ...range });
    expect(asText).toEqual(asList);
    expect(asList.length).toBe(6);
    const stations = await store.stationTimeseries({ names: ['LAKE MEAD_STATION,BLW_STATION'], variables: 'ATemp', ...range } as never);
    expect(new Set(stations.map((r) => r.STA_NAME))).toEqual(new Set(['LAKE MEAD_STATION', 'BLW_STATION']));
  });

  it('says a station asked for as a reservoir is one, and suggests the names holding a part', async () => {
    const error = await store.reservoirTimeseries({ names: ['LAKE MEAD_STATION', 'MEAD'], ...range }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).elsewhere).toEqual(['LAKE MEAD_STATION']);
    expect((error as Error).message).toBe('reservoir not found: "LAKE MEAD_STATION" (it is a station, not a reservoir), "MEAD" (did you mean "LAKE MEAD"?)');
  });
});

describe('library errors name the option the caller wrote', () => {
  it('says start and end where the wire says start_date and end_date, and keeps the wire words for the server', async () => {
    const bad = await store.reservoirTimeseries({ start: '2021-01-02', end: '2021-01-01' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(InvalidParameterError);
    const error = bad as InvalidParameterError;
    expect([error.parameter, error.message]).toEqual(['end', 'end 2021-01-01 is before start 2021-01-02']);
    expect(error.wire).toEqual({ parameter: 'end_date', message: 'end_date 2021-01-01 is before start_date 2021-01-02' });
    expect(() => store.streamStationTimeseries({ start: 'x' })).toThrow(/^start must be a date/);
  });

  it('while the server still names the wire parameter in its 422', async () => {
    const server = await startTestServer({ store });
    try {
      const response = await server.get('/timeseries/daily/reservoirs/daterange?start_date=2021-02-30');
      expect(response.status).toBe(422);
      const [detail] = ((await response.json()) as { detail: { loc: string[]; msg: string }[] }).detail;
      expect(detail!.loc).toEqual(['query', 'start_date']);
      expect(detail!.msg).toBe('start_date is not a calendar date: 2021-02-30 does not exist');
    } finally {
      await server.close();
    }
  });
});
