// What the notebook display costs an answer that is never shown: every stream of the store gets its display methods
// when it is made (withDisplay). This times that step alone, against the answers it rides on and DuckDB's time for
// the same query, warm, on the demo store.
//   npx tsx bench/notebook.ts [--budget MS]
// Last results (2 shared cores, Node 20): setting the display prototype 0.06 µs per answer; one day of one reservoir
// 0.02 ms, a month 0.02 ms, a year of two reservoirs and two variables 0.05 ms (DuckDB 1.9, 1.9 and 2.8 ms): 0.1 to
// 0.35 % of the smallest warm answers, and nothing is read or computed for the display until an answer is shown.
// (Before the display moved onto a shared prototype it cost 10 µs, 40 % of a cached answer: the reason this exists.)

import { parseArgs } from 'node:util';
import type { DatasetName } from '../lib/catalogue.js';
import { storeLabel } from '../lib/display/source.js';
import type { RecordStream } from '../lib/format/stream.js';
import { openStore } from '../lib/open/store.js';
import { displayPrototype, withDisplay } from '../lib/open/stream-display.js';
import { defaultStoreDir } from '../lib/synthetic/demo.js';
import { DuckEngine } from './duckdb.js';
import { ms } from './inprocess.js';
import { duckdbSql, type QuerySpec } from './queries.js';
import { now, timeRepeated } from './timing.js';

const { values: flags } = parseArgs({ options: { budget: { type: 'string', default: '2000' } } });
const repeat = { minRuns: 20, maxRuns: 5000, budgetMs: Number(flags.budget) };
const root = defaultStoreDir();
const store = await openStore(root);

// the attaching step alone: a stream object as aroundOutputs makes it (a spread copy), with and without the display
const base = store.streamReservoirTimeseries({ names: ['LAKE MEAD'] });
const plain = { ...base } as RecordStream;
const rounds = 200_000;
const prototype = displayPrototype(() => storeLabel(store));
const timeCopies = (decorate: boolean): number => {
  const t = now();
  for (let i = 0; i < rounds; i++) {
    const copy = { ...plain };
    if (decorate) withDisplay(copy, prototype);
  }
  return ((now() - t) / rounds) * 1e6; // ns per answer
};
timeCopies(true); // warm-up
const attachNs = Math.max(0, timeCopies(true) - timeCopies(false));

const nete: DatasetName[] = ['nete-volume-calcs'];
const specs: { label: string; spec: QuerySpec & { kind: 'reservoir-range' } }[] = [
  {
    label: 'one reservoir, one day, NetE',
    spec: { kind: 'reservoir-range', names: ['LAKE MEAD'], datasets: nete, variables: ['NetE'], start: '2020-07-01', end: '2020-07-01' },
  },
  {
    label: 'one reservoir, a month, NetE',
    spec: { kind: 'reservoir-range', names: ['LAKE MEAD'], datasets: nete, variables: ['NetE'], start: '2020-07-01', end: '2020-07-31' },
  },
  {
    label: 'two reservoirs, a year, NetE and E_volume',
    spec: {
      kind: 'reservoir-range',
      names: ['LAKE MEAD', 'LAKE POWELL'],
      datasets: nete,
      variables: ['NetE', 'E_volume'],
      start: '2020-01-01',
      end: '2020-12-31',
    },
  },
];
const duck = await DuckEngine.open();
console.log(`attaching the display: ${(attachNs / 1000).toFixed(2)} µs per answer (${rounds} answers, against the same object without it)\n`);
console.log('| answer (records, warm) | evap | DuckDB | display share of evap |');
console.log('|---|---|---|---|');
for (const { label, spec } of specs) {
  const query = { names: spec.names, datasets: spec.datasets, variables: spec.variables, start: spec.start, end: spec.end };
  const ours = await timeRepeated(() => store.reservoirTimeseries(query), repeat);
  const sql = duckdbSql(root, spec);
  const theirs = await timeRepeated(() => duck.records(sql), repeat);
  console.log(`| ${label} | ${ms(ours.medianMs)} | ${ms(theirs.medianMs)} | ${((attachNs / 1e6 / ours.medianMs) * 100).toFixed(2)} % |`);
}
duck.close();
await store.close();
