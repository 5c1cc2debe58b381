// Answer tables: typed columns whatever the values, and a bound on what is built in memory.
import { describe, expect, it } from 'vitest';
import { recordsToTable } from '../../../lib/format/answer-table.js';
import { tableRecords } from '../../helpers.js';

describe('recordsToTable', () => {
  it('types columns by their names, so an empty answer keeps its schema, and attributes by their values', () => {
    const columns = ['RES_NAME', 'start_date', 'end_date', 'n_days', 'NetE (mm)', 'NetE (mm) n', 'qflag', 'LAT'];
    const empty = recordsToTable([], columns);
    expect(empty.schema.fields.map((f) => String(f.type))).toEqual(['Utf8', 'Date32<DAY>', 'Date32<DAY>', 'Int32', 'Float64', 'Int32', 'Utf8', 'Utf8']);
    const table = recordsToTable(
      [{ RES_NAME: 'A', start_date: '2020-01-01', end_date: '2020-01-31', n_days: 31, 'NetE (mm)': null, 'NetE (mm) n': 0, qflag: null, LAT: 40.5 }],
      columns,
    );
    expect(table.schema.fields.map((f) => String(f.type))).toEqual(['Utf8', 'Date32<DAY>', 'Date32<DAY>', 'Int32', 'Float64', 'Int32', 'Utf8', 'Float64']);
    expect(tableRecords(table)).toEqual([
      { RES_NAME: 'A', start_date: '2020-01-01', end_date: '2020-01-31', n_days: 31, 'NetE (mm)': null, 'NetE (mm) n': 0, qflag: null, LAT: 40.5 },
    ]);
  });
});
