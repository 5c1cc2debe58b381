// Reservoir storage through time, and stage, area and average depth from a power-law area-capacity curve.
import type { Random } from './random.js';
import type { ReservoirSpec } from './reference.js';
import { storageHistories } from './reference.js';

/** Reservoirs smaller than this (m3) are static: constant area, stage and depth, like the service's static locations. */
const staticCapacityM3 = 1e7;

/** Whether the model keeps a reservoir static (its metadata qflag is then 'S'). */
export function isStaticReservoir(spec: ReservoirSpec): boolean {
  return spec.capacityM3 < staticCapacityM3;
}

/** The area-capacity curve A = A_full (V/V_full)^b, with b chosen so the stage drawdown at V = 0 is the maximum depth. */
export class Curve {
  readonly b: number;
  readonly meanDepthFull: number; // V_full / A_full, m

  constructor(private readonly spec: ReservoirSpec) {
    this.meanDepthFull = spec.capacityM3 / spec.fullAreaM2;
    // h_full - h(V) = D (1 - f^(1-b)) / (1-b) from dV = A dh, which equals maxDepth at f = 0 when 1 - b = D / maxDepth
    this.b = Math.min(0.85, Math.max(0.3, 1 - this.meanDepthFull / spec.maxDepthM));
  }

  /** Surface area in m2 at a fraction of full storage. */
  area(fraction: number): number {
    return this.spec.fullAreaM2 * fraction ** this.b;
  }

  /** Water surface elevation in m at a fraction of full storage. */
  stage(fraction: number): number {
    const c = 1 - this.b;
    return this.spec.elevM - (this.meanDepthFull * (1 - fraction ** c)) / c;
  }

  /** Average depth (storage / area) in m at a fraction of full storage. */
  depth(fraction: number): number {
    return this.meanDepthFull * fraction ** (1 - this.b);
  }
}

/** Storage as a fraction of full pool, stepped daily: seasonal fill and draw plus slow wet/dry spells, or a known history. */
export class Storage {
  readonly isStatic: boolean;
  fraction = 1;
  private readonly history: readonly (readonly [number, number])[] | undefined;
  private readonly meanFill: number;
  private readonly seasonalAmplitude: number;
  private readonly peakDoy: number;
  private spell = 0;

  constructor(
    spec: ReservoirSpec,
    private readonly rng: Random,
  ) {
    this.isStatic = isStaticReservoir(spec);
    this.history = storageHistories[spec.name];
    this.meanFill = rng.between(0.55, 0.85);
    this.seasonalAmplitude = this.history ? 0.03 : rng.between(0.05, 0.2);
    // snowmelt-fed reservoirs peak in early summer; California ones in spring
    this.peakDoy = (spec.lon < -119 ? 120 : spec.elevM > 1500 ? 170 : 145) + rng.between(-15, 15);
  }

  /** Advances to the next day. */
  step(year: number, doy: number, yearLength: number): void {
    if (this.isStatic) return;
    // AR(1) with a ~1 year time scale and a standard deviation of about 0.12
    this.spell = 0.9973 * this.spell + 0.0088 * this.rng.normal();
    const seasonal = this.seasonalAmplitude * Math.cos((2 * Math.PI * (doy - this.peakDoy)) / 365.25);
    const base = this.history ? interpolate(this.history, year + (doy - 0.5) / yearLength - 0.5) + 0.1 * this.spell : this.meanFill + this.spell;
    this.fraction = Math.min(1, Math.max(0.08, base + seasonal));
  }
}

/** Piecewise-linear interpolation in a table of (x, y) rows sorted by x, constant beyond its ends. */
function interpolate(table: readonly (readonly [number, number])[], x: number): number {
  const first = table[0]!;
  if (x <= first[0]) return first[1];
  for (let i = 1; i < table.length; i++) {
    const [x1, y1] = table[i]!;
    if (x <= x1) {
      const [x0, y0] = table[i - 1]!;
      return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
    }
  }
  return table[table.length - 1]![1];
}
