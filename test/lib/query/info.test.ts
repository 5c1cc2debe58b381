// Discovery answers from the tiny store's manifest, whose datasets, dates and stations are known by construction.
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidParameterError } from '../../../lib/errors.js';
import { openStore } from '../../../lib/open/store.js';
import { describeStationVariables, listDatasets, listDates, listStationDates, listVariables } from '../../../lib/query/info.js';
import type { Manifest } from '../../../lib/store/manifest.js';
import { tempDir, writeTinyStore } from '../../helpers.js';

let manifest: Manifest;
beforeAll(async () => {
  const dir = await tempDir();
  await writeTinyStore(dir);
  manifest = (await openStore(dir)).manifest;
});

describe('listDatasets', () => {
  it('lists only the datasets the store holds', () => {
    expect(listDatasets(manifest)).toEqual(['nete-volume-calcs']);
  });
});

describe('listVariables', () => {
  it('describes the variables of a dataset with both unit labels', () => {
    expect(listVariables(manifest, 'nete-volume-calcs')[0]).toEqual({
      api_name: 'NetE',
      description: 'Net evaporation',
      dataset: 'nete-volume-calcs',
      units_metric: 'mm',
      units_english: 'in',
    });
  });

  it('refuses a dataset the store does not hold, known to the catalogue or not', () => {
    expect(() => listVariables(manifest, 'rtma')).toThrow(InvalidParameterError);
    expect(() => listVariables(manifest, 'nete')).toThrow(/unknown dataset "nete".*allowed: nete-volume-calcs/);
  });
});

describe('listDates', () => {
  it('spans the first to the last day written', () => {
    expect(listDates(manifest, 'nete-volume-calcs', 'E_volume')).toEqual([{ start_date: '2020-12-30', end_date: '2021-01-02' }]);
  });

  it('refuses a variable of another dataset', () => {
    expect(() => listDates(manifest, 'nete-volume-calcs', 'pr')).toThrow(/variable "pr" is not in dataset nete-volume-calcs/);
  });
});

describe('listStationDates', () => {
  it('spans the stations asked, and is empty for none held', () => {
    expect(listStationDates(manifest, ['ALPHA_STATION'])).toEqual([{ start_date: '2020-12-30', end_date: '2021-01-02' }]);
    expect(listStationDates(manifest, ['NOPE_STATION'])).toEqual([]);
  });
});

describe('describeStationVariables', () => {
  it('describes station variables under the dataset name stations', () => {
    expect(describeStationVariables(['ATemp'])).toEqual([
      { api_name: 'ATemp', description: 'Air temperature', dataset: 'stations', units_metric: 'degC', units_english: 'degF' },
    ]);
  });
});
