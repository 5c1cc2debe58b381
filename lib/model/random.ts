// Small seeded random numbers: a string hash of (seed, name) seeds a mulberry32 generator.

/** 32-bit FNV-1a hash of a string, finished with the murmur3 mixer. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A fast seeded generator (mulberry32) with uniform, normal and exponential draws. */
export class Random {
  private state: number;

  constructor(seed: number, name: string) {
    this.state = hashString(`${seed}\u0000${name}`);
  }

  /** A generator that goes on from this one's state: the same draws from here on, without changing this one. */
  clone(): Random {
    return Object.assign(Object.create(Random.prototype) as Random, this);
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Standard normal (Box-Muller, one value per call). */
  normal(): number {
    const u = 1 - this.uniform(); // in (0, 1]
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.uniform());
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.uniform());
  }

  /** Uniform in [low, high). */
  between(low: number, high: number): number {
    return low + (high - low) * this.uniform();
  }
}
