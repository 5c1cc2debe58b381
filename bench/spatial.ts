// `npx tsx bench/spatial.ts`: times the shapefile filter with the 20,000-vertex test polygon over every demo reservoir and station.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from '../lib/open/store.js';
import { filterPointsByShapefile } from '../lib/spatial/within.js';
import { repoRoot } from './store.js';

const folder = join(repoRoot, 'test', 'fixtures', 'shapefiles', 'west_circle');
const part = (ext: string) => readFile(join(folder, `west_circle.${ext}`));
const parts = { shp: await part('shp'), dbf: await part('dbf'), prj: await part('prj'), shx: await part('shx') };
const store = await openStore();
const points = [...store.reservoirMetadata(store.manifest.reservoirs.names), ...store.stationMetadata(store.manifest.stations.names)].map((m) => ({
  name: String(m.RES_NAME ?? m.STA_NAME),
  lat: m.LAT as number,
  lon: m.LON as number,
}));
const times: number[] = [];
let inside = 0;
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  inside = (await filterPointsByShapefile(parts, points)).length;
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(
  `${points.length} reservoirs and stations, ${inside} inside: parse + filter first ${times.at(-1)!.toFixed(1)} ms (slowest), median ${times[25]!.toFixed(1)} ms (50 runs)`,
);
