// Writing forecast issues into a store of many reservoirs, one fresh process a run: the time of each issue, its bytes
// (statistics, members, the totals table, the indexes) and the process's peak memory (its greatest resident set).
//   npx tsx bench/forecast-write.ts --store DIR [--first 2021-12-31] [--issues 1] [--source model|copies] [--members 16] [--keep 0]
// The store needs the reservoirs' metadata alone (bench/forecast.ts, or generateStore over one day, makes one).
// --source model runs the DLEM's ensembles as evap generate does (lib/forecast/add.ts): the time is the model's and
// the writing's. --source copies makes 64 reservoirs' ensembles with the model once and gives each reservoir one of
// them (the rows differ by name and date alone, the values are the model's): the time is the writing's. Either way
// each issue is written while its forecasts are made, a row group at a time, and committed as one snapshot at the end.
import { parseArgs } from 'node:util';
import { formatDay, parseDay } from '../lib/dates.js';
import { addForecasts } from '../lib/forecast/add.js';
import { forecastReservoir } from '../lib/forecast/generate.js';
import { forecastFromMembers, type ReservoirForecast } from '../lib/forecast/issue.js';
import { writeForecastSources } from '../lib/forecast/write.js';
import { catalogueReservoirs } from '../lib/model/places.js';
import { openStore } from '../lib/open/store.js';
import { SPIN_UP_DAYS } from '../lib/synthetic/chunks.js';
import { createStoreWriter } from '../lib/writer/write.js';
import { median } from './timing.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string' },
    first: { type: 'string', default: '2021-12-31' },
    issues: { type: 'string', default: '1' },
    source: { type: 'string', default: 'copies' },
    members: { type: 'string', default: '16' },
    keep: { type: 'string', default: '0' }, // the last this many issues keep their members
    seed: { type: 'string', default: '7' },
  },
});
if (!values.store) throw new Error('--store DIR: a store holding the reservoirs metadata');
const first = parseDay(values.first, 'first');
const issues = Number(values.issues);
const members = Number(values.members);
const keep = Number(values.keep);
const seed = Number(values.seed);
const store = await openStore(values.store);
const writer = createStoreWriter(store.storage, { base: store.manifest });
const names = [...writer.current.reservoirs.names].sort();
const origin = first - SPIN_UP_DAYS; // the model's states start there, as a store generated from the first issue day would
const rss = () => process.memoryUsage().rss / 2 ** 20;
const before = rss();
// the process's CPU time (every thread's): on a loaded machine the wall time is the other processes' too
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const began = performance.now();
const cpuBegan = cpu();
const perIssue: number[] = [];
const perIssueCpu: number[] = [];
if (values.source === 'model') {
  const specs = catalogueReservoirs(names.length, seed);
  await addForecasts(writer, specs, {
    firstIssue: formatDay(first),
    lastIssue: formatDay(first + issues - 1),
    members,
    keepMembers: keep,
    seed,
    origin,
    onProgress: () => {
      perIssue.push(performance.now() - began - perIssue.reduce((a, b) => a + b, 0));
      perIssueCpu.push(cpu() - perIssueCpu.reduce((a, b) => a + b, cpuBegan));
    },
  });
} else {
  // 64 reservoirs' ensembles from the model, each reservoir given one of them
  const pool: Record<'kept' | 'not', ReservoirForecast[]> = { kept: [], not: [] };
  for (const spec of catalogueReservoirs(64, seed)) {
    const ensemble = forecastReservoir(spec, seed, first - SPIN_UP_DAYS, first, first, members).next().value!;
    pool.kept.push(forecastFromMembers(ensemble.members, ensemble.count, true));
    pool.not.push(forecastFromMembers(ensemble.members, ensemble.count, false));
  }
  let entries = writer.current.forecasts ?? [];
  for (let k = 0; k < issues; k++) {
    const t = performance.now();
    const c = cpu();
    const kept = k >= issues - keep;
    const from = pool[kept ? 'kept' : 'not'];
    entries = await writeForecastSources(writer, entries, [
      { issued: first + k, names, memberCounts: names.map(() => (kept ? members : 0)), forecasts: names.map((_, i) => from[(i * 7 + k) % from.length]!) },
    ]);
    perIssue.push(performance.now() - t);
    perIssueCpu.push(cpu() - c);
  }
}
const written = performance.now() - began;
const manifest = await writer.commit();
const mine = (manifest.forecasts ?? []).filter((m) => m.stats.path.includes(writer.snapshot));
const sum = (f: (m: (typeof mine)[number]) => number) => mine.reduce((s, m) => s + f(m), 0);
console.log(
  JSON.stringify({
    reservoirs: names.length,
    issues: mine.length,
    source: values.source,
    writeMs: Math.round(written),
    perIssueMs: perIssue.map((t) => Math.round(t)),
    perIssueCpuMs: perIssueCpu.map((t) => Math.round(t)),
    // per row of statistics (28 leads x 8 statistics a reservoir), wall and CPU, the median issue
    usPerRow: Number(((median(perIssue) * 1000) / (names.length * 224)).toFixed(2)),
    cpuUsPerRow: Number(((median(perIssueCpu) * 1000) / (names.length * 224)).toFixed(2)),
    statsBytes: sum((m) => m.stats.bytes),
    membersBytes: sum((m) => m.members?.bytes ?? 0),
    totalsBytes: sum((m) => m.totals?.bytes ?? 0),
    indexBytes: sum((m) => (m.stats.index?.bytes ?? 0) + (m.members?.index?.bytes ?? 0) + (m.totals?.index?.bytes ?? 0)),
    rssBeforeMiB: Math.round(before),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
