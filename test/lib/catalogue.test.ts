// The catalogue against definitions written out here: the unit conversions derived from the international foot, the
// public documentation's appendix of variables (a copy in test/fixtures/evap-docs), the aggregation lists of issue 14,
// and lookups by name.
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
  it("are the public documentation's variables, in its datasets and units, with its descriptions but where they differ knowingly", async () => {
    // the appendix of the public service's documentation (test/fixtures/evap-docs/appendix.md): each table's rows under
    // the dataset its heading names
    const text = await readFile(join(import.meta.dirname, '../fixtures/evap-docs/appendix.md'), 'utf8');
    const documented: { dataset: string; name: string; description: string; metric: string; english: string }[] = [];
    let dataset = '';
    for (const line of text.split('\n')) {
      const heading = /^#### (\S+) Dataset/.exec(line);
      if (heading) dataset = heading[1]!.toLowerCase();
      const row = /^\| (\w+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$/.exec(line);
      if (row && row[1] !== 'Variable')
        documented.push({ dataset, name: row[1]!, description: row[2]!.trim(), metric: row[3]!.trim(), english: row[4]!.trim() });
    }
    expect(documented).toHaveLength(22);
    // the appendix writes units for people; the wire writes them as the public service's answers do ("NetE (mm)",
    // "tmmx_c (degC)", "srad (wm2)"): a daily depth "mm/day" is "mm" there
    const wire: Record<string, string> = {
      mm: 'mm',
      'mm/day': 'mm',
      in: 'in',
      'in/day': 'in',
      '°C': 'degC',
      '°F': 'degF',
      kPa: 'kpa',
      'm/s': 'm/s',
      mph: 'mph',
      'W/m²': 'wm2',
      'kg/kg': 'kgkg',
      Pa: 'pa',
      m: 'm',
      ft: 'ft',
      'm²': 'm2',
      acre: 'acre',
      'm³': 'm3',
      'acre-ft': 'acre-ft',
    };
    // where the catalogue knowingly says otherwise, and why
    const differs: Record<string, { description?: string; unit?: string; why: string }> = {
      th: {
        description: 'Wind direction, degrees clockwise from north',
        unit: 'deg',
        why: "the appendix repeats sph_kgkg's row; th is the wind direction, averaged as one",
      },
      Lerr: { description: 'LEM Model Error Flag', unit: 'unitless', why: 'a flag of the model, not an energy flux' },
      tmmx_c: { description: 'Maximum air temperature', why: 'which temperature' },
      tmmn_c: { description: 'Minimum air temperature', why: 'which temperature' },
      vs2m: { description: 'Wind speed at 2 m', why: 'the unit symbol' },
      srad: { description: 'Incoming shortwave solar radiation', why: 'which radiation' },
      E_hs: { description: 'Evaporation with heat storage', why: 'read as a phrase' },
      E_nhs: { description: 'Evaporation without heat storage', why: 'read as a phrase' },
      Tw: { description: 'Water temperature (mixed layer)', why: 'which water' },
    };
    for (const d of documented) {
      const found = findReservoirVariable(d.name);
      expect(found?.dataset, d.name).toBe(d.dataset);
      const known = differs[d.name];
      expect(found!.spec.description, d.name).toBe(known?.description ?? d.description);
      expect([unitLabel(found!.spec.unit, 'metric'), unitLabel(found!.spec.unit, 'english')], d.name).toEqual(
        known?.unit ? [known.unit, known.unit] : [wire[d.metric], wire[d.english]],
      );
    }
    // the catalogue's reservoir variables beyond the appendix: the reference evapotranspirations of the rtma dataset
    const beyond = reservoirVariables.filter((v) => !documented.some((d) => d.name === v.name)).map((v) => `${v.dataset}/${v.name}`);
    expect(beyond).toEqual(['rtma/etr', 'rtma/eto']);
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
