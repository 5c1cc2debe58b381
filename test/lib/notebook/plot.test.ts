// plot() of the demo store's answers: what is drawn is what the answer holds (a bar per value, a line through every
// value, a band where the normal has one), counted in the SVG against the records.
import { beforeAll, describe, expect, it } from 'vitest';
import { recordsToArrow } from '../../../lib/format/answer-table.js';
import { plot } from '../../../lib/notebook/plot.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { defaultStoreDir } from '../../../lib/synthetic/demo.js';

let store: EvapStore;
beforeAll(async () => {
  store = await openStore(defaultStoreDir());
});

const mead = { names: ['LAKE MEAD', 'LAKE POWELL'], datasets: ['nete-volume-calcs'], start: '2020-01-01', end: '2020-12-31' };
const groupOf = (svg: string, name: string, variable: string) => {
  const at = svg.indexOf(`<g class="series" data-name="${name}" data-variable="${variable}"`);
  return svg.slice(at, svg.indexOf('</g>', at));
};

describe('plot', () => {
  it('draws daily values as one line per name and variable through every value', async () => {
    const records = await store.reservoirTimeseries({ ...mead, variables: ['NetE', 'E_volume'] });
    const chart = plot(records, { store });
    expect(chart.kind).toBe('daily');
    expect(chart.series.map((s) => `${s.name}|${s.variable}`)).toEqual([
      'LAKE MEAD|NetE (mm)',
      'LAKE MEAD|E_volume (m3)',
      'LAKE POWELL|NetE (mm)',
      'LAKE POWELL|E_volume (m3)',
    ]);
    for (const name of mead.names) {
      const path = /d="([^"]*)"/.exec(groupOf(chart.svg, name, 'NetE (mm)'))![1]!;
      const drawn = path.match(/[ML]/g)!.length;
      expect(drawn).toBe(records.filter((r) => r.RES_NAME === name && r['NetE (mm)'] !== null).length);
    }
    expect(chart.title).toContain('demo store (synthetic values)');
    expect(chart.svg).toContain('NetE (mm)');
    expect(chart.svg).toContain('E_volume (m3)');
  });

  it('draws monthly totals as one bar per value, inside the normal band of the month when normals are given', async () => {
    const months = await store.reservoirAggregates({ ...mead, variables: ['E_volume'], units: 'english' });
    const normals = await store.reservoirNormals({ names: mead.names, datasets: mead.datasets, variables: ['E_volume'], units: 'english' });
    const chart = plot(months, { normals });
    expect(chart.kind).toBe('periods');
    for (const name of mead.names) {
      const group = groupOf(chart.svg, name, 'E_volume (acre-ft)');
      expect(group.match(/class="bar"/g)).toHaveLength(months.filter((r) => r.RES_NAME === name).length);
      expect(group.match(/class="band"/g)).toHaveLength(12);
    }
    // the same chart from an Arrow table of the same answer
    expect(plot(recordsToArrow(months), { normals }).svg).toBe(chart.svg);
    expect(plot(months).svg).not.toContain('class="band"');
  });

  it('draws a normals answer as its mean line in a band, month by month', async () => {
    const normals = await store.reservoirNormals({ names: ['LAKE MEAD'], datasets: mead.datasets, variables: ['E_volume'] });
    const chart = plot(normals, { title: 'normals' });
    expect(chart.kind).toBe('normals');
    const group = groupOf(chart.svg, 'LAKE MEAD', 'E_volume (m3)');
    expect(group.match(/<polygon class="band" points="([^"]*)"/)![1]!.split(' ')).toHaveLength(24);
    expect(chart.title).toBe('normals');
  });

  it("draws every demo reservoir's E_hs and Tw over three years, every value (146,864 points once overflowed the stack)", async () => {
    const names = await store.listReservoirNames();
    const records = await store.reservoirTimeseries({ names, datasets: ['lem'], variables: ['E_hs', 'Tw'], start: '2019-01-01', end: '2021-12-31' });
    const chart = plot(records);
    expect(chart.series).toHaveLength(names.length * 2);
    const path = /d="([^"]*)"/.exec(groupOf(chart.svg, 'LAKE MEAD', 'Tw (degC)'))![1]!;
    // 1,096 days in 680 pixel columns: at most two a column, so none is thinned
    expect(path.match(/[ML]/g)).toHaveLength(records.filter((r) => r.RES_NAME === 'LAKE MEAD' && r['Tw (degC)'] !== null).length);
    expect(chart.svg).not.toContain('thinned');
  });

  it('reads a stream afresh, which stays readable, and names its store', async () => {
    const stream = store.streamReservoirTimeseries({ ...mead, variables: ['NetE'] });
    const chart = await plot(stream);
    expect(chart.title).toContain('demo store (synthetic values)');
    expect((await stream.records()).length).toBe(732);
  });
});
