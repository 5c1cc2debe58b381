// Field ids are forever: an id once published names that column in every file and every snapshot after it.
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { reservoirAttributes } from '../../../lib/catalogue.js';
import { openStore } from '../../../lib/open/store.js';
import { manifestFiles } from '../../../lib/store/manifest.js';
import { datasetFields, metadataFieldIds, stationFields } from '../../../lib/tables/fields.js';
import { snapshotTables } from '../../../lib/tables/layout.js';
import { tempDir, writeTinyStore } from '../../helpers.js';

const names = (fields: { id: number; name: string }[]) => fields.map((f) => `${f.id}:${f.name}`).join(' ');

describe('field ids', () => {
  it('stay those first published (a new variable goes at the end of its dataset in the catalogue)', () => {
    expect(names(datasetFields('nete-volume-calcs'))).toBe('1:RES_NAME 2:date 3:qflag 4:status 5:NetE 6:E_volume 7:NetE_volume');
    expect(names(datasetFields('lem')).startsWith('1:RES_NAME 2:date 3:qflag 4:status 5:')).toBe(true);
    expect(names(stationFields()).startsWith('1:STA_NAME 2:date 3:status 4:ATemp 5:ATemp_Min 6:ATemp_Max')).toBe(true);
    expect(names(stationFields()).endsWith('41:PofDays')).toBe(true);
    const reservoirs = metadataFieldIds('RES_NAME', [
      { name: 'RES_NAME', type: 'string' },
      { name: 'LAT', type: 'double' },
      { name: 'OWNER', type: 'string' },
      { name: 'OWNER', type: 'double' },
    ]);
    expect(reservoirs.slice(0, 2).map((f) => f.id)).toEqual([1, reservoirAttributes.indexOf('LAT') + 1]);
    expect(reservoirs[2]!.id).toBeGreaterThan(1000); // not a catalogue attribute: from its name and type
    expect(reservoirs[3]!.id).not.toBe(reservoirs[2]!.id); // a changed type is a new column
  });

  it('are in every Parquet file the writer makes, as DuckDB reads them, matching the table schemas', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const store = await openStore(dir);
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    const tables = snapshotTables(store.manifest);
    // the data files of the tables (the date-major copies are no table's: by-date.test.ts checks that)
    for (const file of manifestFiles(store.manifest).filter((f) => f.path.endsWith('.parquet') && !f.path.includes('/by-date/'))) {
      const reader = await connection.runAndReadAll(`select name, field_id from parquet_schema('${join(dir, file.path)}') where num_children is null`);
      const ids = Object.fromEntries(reader.getRowObjectsJson().map((r) => [r.name as string, Number(r.field_id)]));
      const table = tables.find((t) => t.groups.some((g) => g.files.some((f) => f.path === file.path)))!;
      const expected =
        table.fields ??
        metadataFieldIds(
          table.key,
          Object.keys(ids).map((name) => ({ name, type: name === 'LAT' || name === 'LON' || name === 'Shape_Area' ? 'double' : 'string' })),
        );
      expect(ids, file.path).toEqual(Object.fromEntries(expected.filter((f) => f.name in ids).map((f) => [f.name, f.id])));
      expect(Object.keys(ids).length).toBeGreaterThan(1);
    }
    connection.closeSync();
    await store.close();
  });
});
