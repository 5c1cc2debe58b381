// The catalogue against definitions written out here: the unit conversions derived from the international foot, the
// public service's own answers (test/golden, recorded from it), the aggregation lists of issue 14, and lookups by name.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  aggregationOf,
  findReservoirVariable,
  findStationVariable,
  reservoirDatasets,
  reservoirVariables,
  stationVariableNames,
  stationVariables,
  type UnitName,
  unitLabel,
  units,
  variableKey,
} from '../../lib/catalogue.js';

const FOOT = 0.3048; // m, the international foot; everything English below is derived from it
const english: Partial<Record<UnitName, number>> = {
  mm: 1 / 25.4, // 1 in = 1/12 ft = 25.4 mm
  m: 1 / FOOT,
  ms: 3600 / (5280 * FOOT), // m/s in miles of 5280 ft an hour
  m2: 1 / (43_560 * FOOT ** 2), // an acre is 66 ft x 660 ft
  m3: 1 / (43_560 * FOOT ** 3), // an acre-foot
  m3s: 1 / FOOT ** 3, // a cubic foot a second
};

describe('units', () => {
  it('convert to English by the exact definitions, and not at all where both systems share a label', () => {
    for (const [unit, spec] of Object.entries(units) as [UnitName, (typeof units)[UnitName]][]) {
      if (unit === 'degC') continue;
      const factor = english[unit] ?? (spec.metric === spec.english ? 1 : NaN);
      expect(spec.factor / factor, unit).toBeCloseTo(1, 14); // relative: the factors span 1e-4 to 1e2
      expect(spec.offset, unit).toBe(0);
    }
    // °F = °C x 9/5 + 32: water freezes at 32 °F, boils at 212 °F, and -40 is the same in both
    const f = (c: number) => c * units.degC.factor + units.degC.offset;
    expect([f(0), f(100), f(-40)]).toEqual([32, 212, -40]);
  });
});

describe('the variables', () => {
  it("carry the public service's descriptions, datasets and unit labels", async () => {
    const golden = async (name: string) =>
      JSON.parse(await readFile(join(import.meta.dirname, '../golden', `${name}.json`), 'utf8')) as Record<string, string>[];
    const ours = (name: string, dataset: string) => {
      const spec = dataset === 'stations' ? findStationVariable(name)! : findReservoirVariable(name)!.spec;
      return {
        api_name: name,
        description: spec.description,
        dataset,
        units_metric: unitLabel(spec.unit, 'metric'),
        units_english: unitLabel(spec.unit, 'english'),
      };
    };
    for (const file of ['list-variables', 'list-stations-variables']) {
      const recorded = await golden(file);
      expect(recorded.length).toBeGreaterThan(0);
      for (const v of recorded) expect(ours(v.api_name!, v.dataset!)).toEqual(v);
    }
  });

  it('list every reservoir variable once, dataset by dataset, in catalogue order', () => {
    const expected = Object.entries(reservoirDatasets).flatMap(([dataset, d]) => Object.keys(d.variables).map((name) => `${dataset}/${name}`));
    expect(reservoirVariables.map((v) => `${v.dataset}/${v.name}`)).toEqual(expected);
    expect(new Set(reservoirVariables.map((v) => v.name)).size).toBe(reservoirVariables.length);
    expect(stationVariableNames).toEqual(Object.keys(stationVariables));
  });

  it('are found by their own names only, never by an inherited property', () => {
    const names = [...reservoirVariables.map((v) => v.name as string), ...stationVariableNames];
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...names, '__proto__', 'toString', 'constructor', 'hasOwnProperty', 'netE', 'NetE '), fc.string({ maxLength: 8 })),
        (name) => {
          const reservoir = findReservoirVariable(name);
          return (
            (reservoir !== undefined) === reservoirVariables.some((v) => v.name === name) &&
            (reservoir === undefined || reservoir.name === name) &&
            (findStationVariable(name) !== undefined) === stationVariableNames.includes(name as never)
          );
        },
      ),
    );
  });

  it('add up depths and volumes, take the circular mean of directions, and average the rest (issue 14)', () => {
    // the lists, written out here
    const summed = ['pr', 'etr', 'eto', 'E_hs', 'E_nhs', 'NetE', 'E_volume', 'NetE_volume', 'ETo', 'ETr', 'evap_1', 'evap_2', 'evap_3', 'evap_4', 'evap_5'];
    const circular = ['th', 'WD'];
    const all = [
      ...reservoirVariables.map((v) => [v.name as string, v.spec] as const),
      ...stationVariableNames.map((n) => [n as string, findStationVariable(n)!] as const),
    ];
    for (const [name, spec] of all) expect(aggregationOf(spec), name).toBe(summed.includes(name) ? 'sum' : circular.includes(name) ? 'circular-mean' : 'mean');
  });

  it('are keyed on the wire as "<variable> (<unit label>)"', () => {
    fc.assert(
      fc.property(fc.constantFrom(...reservoirVariables), fc.constantFrom('metric' as const, 'english' as const), (v, system) => {
        const key = variableKey(v.name, v.spec.unit, system);
        return key === `${v.name} (${units[v.spec.unit][system]})`;
      }),
    );
    expect([variableKey('NetE', 'mm', 'english'), variableKey('vs2m', 'ms', 'metric'), variableKey('E_volume', 'm3', 'english')]).toEqual([
      'NetE (in)',
      'vs2m (m/s)',
      'E_volume (acre-ft)',
    ]);
  });
});
