// Every reservoir and station as flat arrays (44,000 objects with canvas state would cost more than the drawing).
import { geoAlbersUsa } from 'd3-geo';

export type Kind = 'reservoir' | 'station';
export type Metadata = Record<string, string | number | null>;

// the projection of us-atlas's *-albers-10m files, so points land on the pre-projected state outlines
const projection = geoAlbersUsa().scale(1300).translate([487.5, 305]);

/** Marker radius in CSS pixels at zoom 1 from the surface area (m2): square root, so the disc's area follows it. */
export function radiusOf(areaM2: unknown): number {
  const km2 = typeof areaM2 === 'number' && areaM2 > 0 ? areaM2 / 1e6 : 0;
  return Math.min(12, 1.6 + 0.45 * Math.sqrt(km2));
}

/** The water bodies on the map: name, kind, projected position, radius, metadata; grown as metadata arrives. */
export class Bodies {
  names: string[] = [];
  kinds: Kind[] = [];
  metadata: Metadata[] = [];
  x = new Float32Array(0);
  y = new Float32Array(0);
  r = new Float32Array(0);
  readonly index = new Map<string, number>();

  get size(): number {
    return this.names.length;
  }

  /** Adds metadata rows (RES_NAME or STA_NAME, LAT, LON, Shape_Area); a point outside the projection gets NaN. */
  add(kind: Kind, rows: readonly Metadata[]): void {
    const start = this.size;
    const grow = (a: Float32Array) => {
      const b = new Float32Array(start + rows.length);
      b.set(a);
      return b;
    };
    this.x = grow(this.x);
    this.y = grow(this.y);
    this.r = grow(this.r);
    rows.forEach((row, j) => {
      const i = start + j;
      const name = String(kind === 'reservoir' ? row.RES_NAME : row.STA_NAME);
      const p = typeof row.LON === 'number' && typeof row.LAT === 'number' ? projection([row.LON, row.LAT]) : null;
      this.names.push(name);
      this.kinds.push(kind);
      this.metadata.push(row);
      this.index.set(`${kind}:${name}`, i);
      this.x[i] = p ? p[0] : NaN;
      this.y[i] = p ? p[1] : NaN;
      this.r[i] = kind === 'station' ? 3 : radiusOf(row.Shape_Area);
    });
  }

  /** The index of a reservoir or station by name, or -1. */
  find(kind: Kind, name: string): number {
    return this.index.get(`${kind}:${name}`) ?? -1;
  }
}
