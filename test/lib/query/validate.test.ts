// Checking query options: defaults, duplicates and empties dropped, unknown values refused with the parameter named.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidParameterError, NotFoundError } from '../../../lib/errors.js';
import { resolveAttributes, resolveDatasets, resolveNames, resolveReservoirVariables, resolveUnits } from '../../../lib/query/validate.js';
import { openStore } from '../../../lib/store/store.js';

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
