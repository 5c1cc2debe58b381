// A store with many water bodies over a few days, made in seconds for the explorer's scale test and bench: the
// generator's catalogue of names, places and sizes, and NetE from a cheap formula (the physical model's 90-day spin-up
// costs 25 s of CPU at 44,000 reservoirs even for one day; the explorer needs names, positions, sizes and values).
import { compareText } from '../lib/manifest.js';
import { catalogueReservoirs, catalogueStations } from '../lib/model/index.js';
import { createStoreWriter } from '../lib/write.js';

/** Writes `reservoirs` reservoirs and `stations` stations with NetE on `days` days ending 2025-12-31 into `dir`. */
export async function makeWideStore(dir: string, reservoirs: number, stations: number, days = 3): Promise<void> {
  const seed = 20240501;
  const specs = catalogueReservoirs(reservoirs, seed).sort((a, b) => compareText(a.name, b.name));
  const writer = createStoreWriter(dir, { overwrite: true });
  await writer.writeReservoirMetadata(
    specs.map((r) => ({ RES_NAME: r.name, STATE: r.state, LAT: r.lat, LON: r.lon, Shape_Area: r.fullAreaM2, ELEV_M: r.elevM, MAX_DEPTH_M: r.maxDepthM, CAPACITY_M3: r.capacityM3, qflag: 'O' })),
  );
  await writer.writeStationMetadata(
    catalogueStations(stations, specs, seed).map((s) => ({ STA_NAME: s.name, STATION_TYPE: s.type, STATUS: s.status, LAT: s.lat, LON: s.lon, ELEV_M: s.elevM, RES_NAME: s.reservoir, qflag: 'O' })),
  );
  const last = Date.UTC(2025, 11, 31) / 86_400_000;
  const n = specs.length * days;
  const names: string[] = new Array(n);
  const dayColumn = new Int32Array(n);
  const nete = new Float64Array(n);
  specs.forEach((r, i) => {
    for (let d = 0; d < days; d++) {
      const row = i * days + d;
      names[row] = r.name;
      dayColumn[row] = last - days + 1 + d;
      nete[row] = Math.round((1.5 + 0.08 * (40 - r.lat) + 0.0004 * r.elevM * Math.sin(i + d)) * 1e4) / 1e4; // warmer south, some spread
    }
  });
  await writer.addReservoirRows('nete-volume-calcs', 2025, { names, days: dayColumn, values: { NetE: nete } });
  await writer.commit();
}
