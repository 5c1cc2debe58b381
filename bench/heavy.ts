// `npx tsx bench/heavy.ts [--store DIR] [--clients N] [--seconds S] [--dates same|distinct] [--max-heavy N]`: N clients
// each asking for every reservoir on one date again and again (the heaviest documented answer), and beside them one
// client asking for one reservoir's year every 200 ms, against the server in a child process. Prints the heavy answers
// a second and their latency, the small query's latency, and the server's peak RSS. `--dates distinct` gives every
// request its own date (no day is asked twice: what the kept day cannot help); `--max-heavy` is the server's setting.
// The store is the scale bench's largest (npm run bench makes it); the figures to read are the ratios between settings.
import { parseArgs } from 'node:util';
import { startServer } from './http.js';
import { curveScales, scaleStoreDir } from './store.js';
import { percentile } from './timing.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string' },
    clients: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '12' },
    dates: { type: 'string', default: 'same' },
    'max-heavy': { type: 'string' },
  },
});
const store = values.store ?? scaleStoreDir(curveScales.at(-1)!);
const server = await startServer(store, values['max-heavy'] ? ['--max-heavy', values['max-heavy']] : []);
try {
  const headers = { 'api-key': server.key };
  const [held] = (await (await fetch(`${server.url}/info/list_dates?dataset=nete-volume-calcs&variable=NetE`, { headers })).json()) as { end_date: string }[];
  const last = new Date(`${held!.end_date}T00:00:00Z`);
  let asked = 0;
  const nextDate = () => {
    const day = new Date(last);
    if (values.dates === 'distinct') day.setUTCDate(day.getUTCDate() - asked++ - 1);
    return day.toISOString().slice(0, 10);
  };
  const heavyPath = () => `/timeseries/daily/reservoirs/date?date=${nextDate()}&datasets=rtma,nete-volume-calcs`;
  const names = (await (await fetch(`${server.url}/info/list_RES_NAMES`, { method: 'POST', headers })).json()) as { RES_NAMES: string[] };
  const small = `/timeseries/daily/reservoirs/daterange?RES_NAMES=${encodeURIComponent(names.RES_NAMES[0]!)}&start_date=${last.getUTCFullYear()}-01-01&end_date=${held!.end_date}&datasets=nete-volume-calcs&variables=NetE,E_volume`;
  const timed = async (path: string) => {
    const began = performance.now();
    const response = await fetch(`${server.url}${path}`, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    return performance.now() - began;
  };
  const end = Date.now() + Number(values.seconds) * 1000;
  const heavy: number[] = [];
  const light: number[] = [];
  const began = performance.now();
  await Promise.all([
    ...Array.from({ length: Number(values.clients) }, async () => {
      while (Date.now() < end) heavy.push(await timed(heavyPath()));
    }),
    (async () => {
      while (Date.now() < end) {
        light.push(await timed(small));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })(),
  ]);
  const seconds = (performance.now() - began) / 1000;
  const row = {
    clients: Number(values.clients),
    dates: values.dates,
    maxHeavy: values['max-heavy'] ?? 'default',
    heavyPerSecond: +(heavy.length / seconds).toFixed(2),
    firstHeavyMs: Math.round(Math.min(...heavy)),
    heavyP50Ms: Math.round(percentile(heavy, 0.5)!),
    smallP50Ms: Math.round(percentile(light, 0.5)!),
    smallMaxMs: Math.round(Math.max(...light)),
    peakRssMB: Math.round((server.peakRssBytes() ?? 0) / 2 ** 20),
  };
  console.log(JSON.stringify(row));
} finally {
  await server.stop();
}
