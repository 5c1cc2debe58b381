// One EDR area answer over every reservoir, against the server in a child process, while a small request
// (/info/list_datasets) is asked every 100 ms beside it: the answer's time to first byte and to its end, its bytes, the
// small request's slowest wait, and the server's peak RSS. The store: `--reservoirs` wide-store reservoirs with NetE
// on `--days` days (test/support/wide-store.ts), made in a temporary folder.
// `npx tsx bench/edr.ts [--reservoirs 1500] [--days 730] [--f CoverageJSON|GeoJSON] [--parallel 1]`
//
// Last results (2 CPUs shared with other work, load average 1 to 15; server through tsx):
//   1,500 x 730 days, CoverageJSON (32 MB): 47.4 s, first byte 44.1 s, small request waited up to 43.0 s (one reset),
//     peak RSS 503 MB -> 5.8 s, first byte 1.6 s, small request 0.38 s at most, peak RSS 223 MB
//   1,500 x 365 days, GeoJSON (110 MB): 7.6 s, first byte 5.4 s, small request 4.7 s, peak RSS 819 MB -> 4.5 s, first
//     byte 0.9 s, small request 0.36 s, peak RSS 167 MB
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeWideStore } from '../test/support/wide-store.js';
import { startServer } from './http.js';

const { values } = parseArgs({
  options: {
    reservoirs: { type: 'string', default: '1500' },
    days: { type: 'string', default: '730' },
    f: { type: 'string', default: 'CoverageJSON' },
    parallel: { type: 'string', default: '1' },
  },
});
const dir = await mkdtemp(join(tmpdir(), 'evap-bench-edr-'));
await makeWideStore(dir, Number(values.reservoirs), Number(values.days));
const server = await startServer(dir);
try {
  const headers = { 'api-key': server.key };
  const world = encodeURIComponent('POLYGON((-180 -90,180 -90,180 90,-180 90,-180 -90))');
  const area = `${server.url}/ogc/collections/nete-volume-calcs/area?coords=${world}&parameter-name=NetE&f=${values.f}`;
  let done = false;
  const small: number[] = [];
  let failed = 0;
  const beside = (async () => {
    while (!done) {
      const began = performance.now();
      // a server too busy to read its sockets may reset the connection: the wait is still counted, as a failure
      const ok = await fetch(`${server.url}/info/list_datasets`, { headers }).then(
        (r) => r.arrayBuffer().then(() => r.ok),
        () => false,
      );
      small.push(performance.now() - began);
      if (!ok) failed++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const began = performance.now();
  const answers = await Promise.all(
    Array.from({ length: Number(values.parallel) }, async () => {
      const response = await fetch(area, { headers, signal: AbortSignal.timeout(600_000) });
      const reader = response.body!.getReader();
      let firstByteMs: number | undefined;
      let bytes = 0;
      for (;;) {
        const { done: end, value } = await reader.read();
        if (end) break;
        firstByteMs ??= performance.now() - began;
        bytes += value.byteLength;
      }
      return {
        status: response.status,
        firstByteMs: Math.round(firstByteMs ?? 0),
        ms: Math.round(performance.now() - began),
        MB: +(bytes / 2 ** 20).toFixed(1),
      };
    }),
  );
  done = true;
  await beside;
  console.log(
    JSON.stringify({
      reservoirs: Number(values.reservoirs),
      days: Number(values.days),
      f: values.f,
      answers,
      smallMaxMs: Math.round(Math.max(...small)),
      smallCount: small.length,
      smallFailed: failed,
      peakRssMB: Math.round((server.peakRssBytes() ?? 0) / 2 ** 20),
    }),
  );
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
