// `npx tsx bench/readme.ts`: times the README's library example on the demo store, cold (open + first query) and warm.
import { openStore } from '../lib/open/store.js';

const query = {
  names: ['LAKE ALICE'],
  datasets: ['nete-volume-calcs'],
  variables: ['NetE', 'E_volume'],
  start: '2020-01-01',
  end: '2020-12-31',
  units: 'metric',
  alsoReturn: ['qflag'],
} as const;
const began = performance.now();
const store = await openStore();
const rows = await store.reservoirTimeseries(query);
const first = performance.now() - began;
const times: number[] = [];
for (let i = 0; i < 500; i++) {
  const t = performance.now();
  await store.reservoirTimeseries(query);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(
  `${rows.length} records: open + first query ${first.toFixed(1)} ms; warm median ${times[250]!.toFixed(3)} ms, p90 ${times[450]!.toFixed(3)} ms (500 runs)`,
);
