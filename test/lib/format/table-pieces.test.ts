// recordsToTableInPieces: the table recordsToTable makes, whatever gaps each piece holds.
import { describe, expect, it } from 'vitest';
import { recordsToTable } from '../../../lib/format/answer-table.js';
import { recordsToTableInPieces } from '../../../lib/format/table-pieces.js';
import { PIECE_VALUES } from '../../../lib/turns.js';

describe('recordsToTableInPieces', () => {
  it('joins pieces under one schema when the first has no gaps and a later one has (a double is nullable there only)', async () => {
    const columns = ['STA_NAME', 'start_date', 'ATemp (degC)'];
    const length = 3 * Math.ceil(PIECE_VALUES / columns.length);
    const records = Array.from({ length }, (_, i) => ({
      STA_NAME: 'LAKE MEAD_STATION',
      start_date: new Date((18_000 + (i % 3000)) * 864e5).toISOString().slice(0, 10),
      'ATemp (degC)': i > length / 2 && i % 7 === 0 ? null : i / 8,
    }));
    const table = await recordsToTableInPieces(records, columns);
    const whole = recordsToTable(records, columns);
    expect(table.batches.length).toBeGreaterThan(1);
    expect(table.schema.fields.map((f) => [f.name, String(f.type), f.nullable])).toEqual(whole.schema.fields.map((f) => [f.name, String(f.type), f.nullable]));
    expect([...table.getChild('ATemp (degC)')!]).toEqual([...whole.getChild('ATemp (degC)')!]);
  });
});
