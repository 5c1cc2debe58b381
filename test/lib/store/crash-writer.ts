// A store writer to be killed: `node --import tsx test/lib/store/crash-writer.ts <store> <generation>` rewrites every file of
// the store as generation g, g+1, ... until killed; "ready" on stdout once loaded, "<g> <snapshot id>" after each commit.
// The test runs it on the build when fresh (test/support/script.ts).
// It imports only the writer (not the reader, nor test helpers) so that a process starts fast.
import { fileURLToPath } from 'node:url';
import { parseDay } from '../../../lib/dates.js';
import { readCurrentManifest } from '../../../lib/store/history.js';
import { createStoreWriter } from '../../../lib/writer/write.js';

const days = (start: string, count: number) => Int32Array.from({ length: count }, (_, i) => parseDay(start, 'date') + i);
const reservoirs = [
  { RES_NAME: 'ALPHA LAKE', LAT: 40, LON: -105 },
  { RES_NAME: 'BETA RESERVOIR', LAT: 39, LON: -111 },
];
const stations = [{ STA_NAME: 'ALPHA_STATION', LAT: 40.01, LON: -105.01 }];

/** Writes one whole snapshot in which every measurement equals `generation` (E_volume 1000 times it); returns its id. */
export async function writeGeneration(dir: string, generation: number): Promise<string> {
  const base = await readCurrentManifest(dir);
  const writer = createStoreWriter(dir, { base });
  await writer.writeReservoirMetadata(reservoirs);
  for (const [year, start] of [
    [2020, '2020-12-30'],
    [2021, '2021-01-01'],
  ] as const) {
    const two = days(start, 2);
    const value = new Float64Array(4).fill(generation);
    const rows = { names: ['ALPHA LAKE', 'ALPHA LAKE', 'BETA RESERVOIR', 'BETA RESERVOIR'], days: Int32Array.from([...two, ...two]) };
    await writer.writeReservoirPartition('nete-volume-calcs', year, { ...rows, values: { NetE: value, E_volume: value.map((v) => v * 1000) } });
  }
  await writer.writeStationMetadata(stations);
  await writer.writeStationPartition('ALPHA_STATION', { days: days('2020-12-30', 4), values: { ATemp: new Float64Array(4).fill(generation) } });
  await writer.commit();
  return writer.snapshot;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, first] = process.argv.slice(2);
  process.stdout.write('ready\n');
  for (let g = Number(first); ; g++) process.stdout.write(`${g} ${await writeGeneration(dir!, g)}\n`);
}
