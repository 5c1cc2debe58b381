// The one error mapper: each library error to its status, FastAPI's body shapes, nothing internal in a 500.
import { describe, expect, it } from 'vitest';
import { InvalidParameterError, type InvalidReason, NotFoundError, StoreError } from '../../lib/errors.js';
import { BodyParameterError, errorResponse, HttpError } from '../../server/errors.js';

async function answer(error: unknown): Promise<{ status: number; body: unknown; logged: string[] }> {
  const logged: string[] = [];
  const response = errorResponse(error, (line) => logged.push(line));
  expect(response.headers.get('content-type')).toBe('application/json');
  return { status: response.status, body: await response.json(), logged };
}

describe('errorResponse', () => {
  it('answers a bad parameter 422 as FastAPI does, the shapefile parts located in the body', async () => {
    expect(await answer(new InvalidParameterError('units', 'units must be one of metric, english', 'not-allowed'))).toEqual({
      status: 422,
      body: { detail: [{ type: 'enum', loc: ['query', 'units'], msg: 'units must be one of metric, english', input: null }] },
      logged: [],
    });
    const shapefile = await answer(new InvalidParameterError('shapefile_shp', 'not a shapefile'));
    expect(shapefile.body).toEqual({ detail: [{ type: 'value_error', loc: ['body', 'shapefile_shp'], msg: 'not a shapefile', input: null }] });
  });

  it("gives each reason FastAPI's type, and locates a body field's error in the body", async () => {
    const types = {
      'not-allowed': 'enum',
      empty: 'missing',
      'not-a-date': 'date_from_datetime_parsing',
      'too-many': 'too_long',
      malformed: 'value_error',
    } as const;
    for (const [reason, type] of Object.entries(types)) {
      expect((await answer(new InvalidParameterError('start_date', 'bad', reason as InvalidReason))).body, reason).toEqual({
        detail: [{ type, loc: ['query', 'start_date'], msg: 'bad', input: null }],
      });
    }
    expect((await answer(new BodyParameterError('RES_NAMES', 'RES_NAMES must be a string, a number or a list of them', 'malformed', { a: 1 }))).body).toEqual({
      detail: [{ type: 'value_error', loc: ['body', 'RES_NAMES'], msg: 'RES_NAMES must be a string, a number or a list of them', input: { a: 1 } }],
    });
  });

  it("gives as input a query parameter's text as sent, else the value the error carries, else null", async () => {
    const error = new InvalidParameterError('units', 'bad units', 'not-allowed', 'si');
    const input = async (sent?: (name: string) => string | undefined) =>
      ((await errorResponse(error, () => {}, sent).json()) as { detail: { input: unknown }[] }).detail[0]!.input;
    expect(await input((name) => (name === 'units' ? ' si ' : undefined))).toBe(' si ');
    expect(await input(() => undefined)).toBeNull(); // left out of the request
    expect(await input()).toBe('si'); // no request to look in
  });

  it('answers an unknown name 404 with the list that names them', async () => {
    expect(await answer(new NotFoundError('RES_NAMES', ['NOPE'], 'reservoir not found: "NOPE"'))).toEqual({
      status: 404,
      body: { detail: 'reservoir not found: "NOPE"; see /info/list_RES_NAMES' },
      logged: [],
    });
  });

  it('answers an HttpError as it says, with its headers', async () => {
    const response = errorResponse(new HttpError(503, 'busy', { 'retry-after': '1' }), () => {});
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toEqual({ detail: 'busy' });
  });

  it('answers anything else 500 without internals, and logs the cause for the operator', async () => {
    const store = await answer(new StoreError('checksum mismatch in nete-volume-calcs/2021.parquet'));
    expect(store).toMatchObject({ status: 500, body: { detail: 'Internal Server Error' } });
    expect(store.logged).toEqual(['store error: checksum mismatch in nete-volume-calcs/2021.parquet']);
    const bug = await answer(new TypeError('x is undefined'));
    expect(bug).toMatchObject({ status: 500, body: { detail: 'Internal Server Error' } });
    expect(bug.logged[0]).toMatch(/^internal error: TypeError: x is undefined/);
    expect((await answer('a thrown string')).logged).toEqual(['internal error: a thrown string']);
  });
});
