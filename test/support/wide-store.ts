// A store with many water bodies over a few days, made in seconds for the explorer's scale test and bench: the 67
// reference reservoirs and 27 stations, then more scattered around them (seeded), with NetE from a cheap formula. The
// generator's model would cost 25 s of CPU at 44,000 reservoirs even for one day (its 90-day spin-up), and its
// catalogue of names 4 s; the explorer needs names, positions, sizes and values, not physics.

import { yearOfDay } from '../../lib/dates.js';
import { referenceReservoirs, referenceStations } from '../../lib/model/index.js';
import { compareText } from '../../lib/order.js';
import { stationMetadata } from '../../lib/synthetic/generate.js';
import type { MetadataRow } from '../../lib/types.js';
import { createStoreWriter } from '../../lib/writer/write.js';

/** Writes `reservoirs` reservoirs (at least the 67 reference ones) and the 27 reference stations, with NetE on `days` days ending 2025-12-31 (a file per year), into `dir`. */
export async function makeWideStore(dir: string, reservoirs: number, days = 3): Promise<void> {
  let state = 20240501;
  const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32; // a seeded LCG: the same store every time
  const rows: MetadataRow[] = referenceReservoirs.map((r) => ({
    RES_NAME: r.name,
    STATE: r.state,
    LAT: r.lat,
    LON: r.lon,
    Shape_Area: r.fullAreaM2,
    ELEV_M: r.elevM,
  }));
  for (let i = rows.length; i < reservoirs; i++) {
    const near = referenceReservoirs[i % referenceReservoirs.length]!;
    rows.push({
      RES_NAME: `${near.name.replace(/ (RESERVOIR|LAKE)$/, '')} POND NO ${i}`,
      STATE: near.state,
      LAT: Math.round((near.lat + (random() + random() + random() - 1.5) * 2.5) * 1e4) / 1e4,
      LON: Math.round((near.lon + (random() + random() + random() - 1.5) * 3.5) * 1e4) / 1e4,
      Shape_Area: Math.round(near.fullAreaM2 * random() ** 3 * 0.2) + 10_000,
      ELEV_M: Math.round(near.elevM * (0.8 + 0.4 * random())),
    });
  }
  rows.sort((a, b) => compareText(String(a.RES_NAME), String(b.RES_NAME)));
  const writer = createStoreWriter(dir, { overwrite: true });
  await writer.writeReservoirMetadata(rows);
  await writer.writeStationMetadata(referenceStations.map(stationMetadata));
  const last = Date.UTC(2025, 11, 31) / 86_400_000;
  const first = last - days + 1;
  // a file per year, as the store keeps them; a year's rows in name then day order
  for (let year = yearOfDay(first); year <= 2025; year++) {
    const from = Math.max(first, Date.UTC(year, 0, 1) / 86_400_000);
    const to = Math.min(last, Date.UTC(year, 11, 31) / 86_400_000);
    const span = to - from + 1;
    const n = rows.length * span;
    const names: string[] = new Array(n);
    const dayColumn = new Int32Array(n);
    const nete = new Float64Array(n);
    rows.forEach((r, i) => {
      for (let k = 0; k < span; k++) {
        const row = i * span + k;
        const d = from + k - first;
        names[row] = String(r.RES_NAME);
        dayColumn[row] = from + k;
        nete[row] = Math.round((1.5 + 0.08 * (40 - Number(r.LAT)) + 0.4 * Math.sin(i + d)) * 1e4) / 1e4; // warmer south, some spread
      }
    });
    await writer.addReservoirRows('nete-volume-calcs', year, { names, days: dayColumn, values: { NetE: nete } });
  }
  await writer.commit();
}
