// `npx tsx bench/uploads.ts`: hostile shapefile uploads under the size limit against the server in a child process, while
// a small query is asked every 50 ms: each upload's status and time, the small query's latency meanwhile, and peak RSS.
// Cases: a .prj of 38 MiB of WKT, a 50 MiB body of 672k tiny parts, a valid 2.9M-vertex polygon to reproject.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from './http.js';
import { repoRoot } from './store.js';

const fixture = (ext: string) => readFileSync(join(repoRoot, 'test/fixtures/shapefiles/colorado_albers', `colorado_albers.${ext}`));
const boundary = 'b0undary7f3a';
const limit = 50 * 1024 * 1024; // the server's default --max-upload-bytes

function multipart(boundary: string, parts: [string, Buffer][]): Buffer {
  return Buffer.concat([
    ...parts.flatMap(([name, bytes]) => [
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${name}"\r\n\r\n`),
      bytes,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
}

// A .prj whose WKT is padded with parameters to `bytes`: proj4 parses every one of them.
function hugePrj(bytes: number): Buffer {
  const wkt = fixture('prj').toString().trim();
  const pad = ',PARAMETER["x",1]';
  return Buffer.from(wkt.replace(/\]$/, `${pad.repeat(Math.floor((bytes - wkt.length) / pad.length))}]`));
}

// One polygon record: a circle of `n` vertices in the CONUS Albers metres of the fixture (over Colorado).
function circleShp(n: number): { shp: Buffer; shx: Buffer } {
  const content = 44 + 4 + 16 * (n + 1);
  const shp = Buffer.alloc(100 + 8 + content);
  shp.writeInt32BE(9994, 0);
  shp.writeInt32BE(shp.length / 2, 24);
  shp.writeInt32LE(1000, 28);
  shp.writeInt32LE(5, 32);
  shp.writeInt32BE(1, 100);
  shp.writeInt32BE(content / 2, 104);
  const at = 108;
  shp.writeInt32LE(5, at);
  shp.writeInt32LE(1, at + 36);
  shp.writeInt32LE(n + 1, at + 40);
  shp.writeInt32LE(0, at + 44);
  for (let i = 0; i <= n; i++) {
    const a = (2 * Math.PI * (i % n)) / n;
    shp.writeDoubleLE(-820_000 + 250_000 * Math.cos(a), at + 48 + 16 * i);
    shp.writeDoubleLE(1_820_000 + 250_000 * Math.sin(a), at + 56 + 16 * i);
  }
  const shx = Buffer.alloc(108);
  shp.copy(shx, 0, 0, 100);
  shx.writeInt32BE(54, 24);
  shx.writeInt32BE(50, 100);
  shx.writeInt32BE(content / 2, 104);
  return { shp, shx };
}

function cases(): { name: string; body: Buffer }[] {
  const tinyPart = (i: number) => `--${boundary}\r\ncontent-disposition: form-data; name="f${i % 10}"\r\n\r\ny\r\n`; // 64 bytes: 819k parts in 50 MiB
  const tiny: string[] = [];
  for (let size = 4, i = 0; size + 80 < limit; i++) {
    tiny.push(tinyPart(i));
    size += tiny[tiny.length - 1]!.length;
  }
  const circle = circleShp(2_900_000);
  return [
    {
      name: `.prj of ${(38).toFixed(0)} MiB of WKT`,
      body: multipart(boundary, [
        ['shapefile_shp', fixture('shp')],
        ['shapefile_prj', hugePrj(38 * 2 ** 20)],
      ]),
    },
    { name: `${tiny.length} tiny parts (${(limit / 2 ** 20).toFixed(0)} MiB)`, body: Buffer.from(`${tiny.join('')}--${boundary}--\r\n`) },
    {
      name: 'a valid 2.9M-vertex polygon, reprojected',
      body: multipart(boundary, [
        ['shapefile_shp', circle.shp],
        ['shapefile_shx', circle.shx],
        ['shapefile_prj', fixture('prj')],
      ]),
    },
  ];
}

async function measure(name: string, body: Buffer): Promise<string> {
  const server = await startServer(join(repoRoot, 'data'));
  try {
    const headers = { 'api-key': server.key };
    await (await fetch(`${server.url}/info/list_datasets`, { headers })).text(); // warm
    const latencies: number[] = [];
    let uploading = true;
    const poll = (async () => {
      while (uploading) {
        const t = performance.now();
        await (await fetch(`${server.url}/info/list_datasets`, { headers })).text();
        latencies.push(performance.now() - t);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const started = performance.now();
    const response = await fetch(`${server.url}/info/list_RES_NAMES`, {
      method: 'POST',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: new Uint8Array(body),
    });
    const detail = (await response.text()).slice(0, 90);
    const ms = performance.now() - started;
    uploading = false;
    await poll;
    latencies.sort((a, b) => a - b);
    const rss = server.peakRssBytes();
    return `| ${name} | ${response.status} ${detail.replace(/\|/g, '/')} | ${ms.toFixed(0)} | ${latencies.length} | ${latencies[latencies.length >> 1]!.toFixed(0)} | ${latencies.at(-1)!.toFixed(0)} | ${rss === null ? '?' : (rss / 2 ** 20).toFixed(0)} |`;
  } finally {
    await server.stop();
  }
}

console.log('| upload | answer | ms | small queries meanwhile | their p50 ms | their max ms | server peak RSS MB |');
console.log('|---|---|---|---|---|---|---|');
for (const { name, body } of cases()) console.log(await measure(name, body));
