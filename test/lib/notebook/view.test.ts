// view() and the streams' own display: what a notebook or REPL shows is the answer's (row count, names, dates, first
// and last rows, checked against the records), showing a stream does not use it up, and plain answers stay plain.
import { inspect } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { jupyterDisplay } from '../../../lib/display/kernel.js';
import { recordsToArrow } from '../../../lib/format/answer-table.js';
import { view } from '../../../lib/notebook/view.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { defaultStoreDir } from '../../../lib/synthetic/demo.js';

let store: EvapStore;
beforeAll(async () => {
  store = await openStore(defaultStoreDir());
});
const query = { names: ['LAKE MEAD', 'LAKE POWELL'], datasets: ['nete-volume-calcs'], variables: ['NetE', 'E_volume'], start: '2020-01-01', end: '2020-12-31' };

describe('view', () => {
  it('summarizes records, and an Arrow table of them alike, leaving the records as they were', async () => {
    const records = await store.reservoirTimeseries(query);
    const before = JSON.stringify(records);
    const shown = view(records);
    expect(shown.text.split('\n')[0]).toBe(
      `evap answer · ${records.length} rows · 2 names: LAKE MEAD, LAKE POWELL · 2020-01-01 to 2020-12-31 · NetE (mm), E_volume (m3)`,
    );
    expect(shown.html).toContain(`${records.length - 10} more rows`);
    expect(shown.html).toContain(`<td>${records.at(-1)!['E_volume (m3)']}</td>`);
    expect(view(recordsToArrow(records)).html).toBe(shown.html);
    expect(JSON.stringify(records)).toBe(before);
    expect(Object.getOwnPropertySymbols(records)).toEqual([]);
    expect(inspect(records)).not.toContain('evap answer');
  });

  it('shows itself to util.inspect, and to Deno as HTML with plain text', () => {
    const shown = view([{ RES_NAME: 'LAKE <X>', start_date: '2020-01-01', end_date: '2020-01-01', 'NetE (mm)': 1 }]);
    expect(inspect(shown)).toBe(shown.text);
    expect(String(shown)).toBe(shown.text);
    const bundle = shown[jupyterDisplay]();
    expect(bundle['text/plain']).toBe(shown.text);
    expect(bundle['text/html']).toContain('LAKE &#60;X&#62;');
  });
});

describe('a store stream', () => {
  it('keeps its documented keys: the display is not enumerable', () => {
    const stream = store.streamReservoirTimeseries(query);
    expect(Object.keys(stream).sort()).toEqual(['batches', 'columns', 'csv', 'frames', 'json', 'maxRecords', 'readRows', 'records', 'table']);
    expect(Object.getOwnPropertySymbols({ ...stream })).toEqual([]); // a spread copy (as aroundOutputs makes) carries no display
  });

  it('says what it will answer to util.inspect, without reading it', () => {
    const before = store.readStats().reads;
    const text = inspect(store.streamReservoirTimeseries(query));
    expect(text).toContain('evap answer from the demo store (synthetic values), not read yet');
    expect(text).toContain('columns: RES_NAME, start_date, end_date, NetE (mm), E_volume (m3)');
    expect(store.readStats().reads).toBe(before);
  });

  it("shows its rows to Deno's display and to view(), and can be read in full afterwards", async () => {
    const stream = store.streamReservoirTimeseries(query);
    const records = await store.reservoirTimeseries(query);
    const bundle = await (stream as unknown as { [jupyterDisplay]: () => Promise<{ 'text/html': string }> })[jupyterDisplay]();
    expect(bundle['text/html']).toContain(`${records.length} rows`);
    expect((await view(stream)).summary.rows).toBe(records.length);
    expect(await stream.records()).toEqual(records);
  });
});
