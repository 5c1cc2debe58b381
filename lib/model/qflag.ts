// The data quality flag of each simulated reservoir-day: mostly O, runs of M (no measurement: the previous day's
// storage values are carried), occasional R (an outlier removed, likewise carried). Static reservoirs are S every day.
import type { QFlag } from '../flags.js';
import { Random } from './random.js';

const M_RUN_START = 0.006; // about two gaps a year
const M_RUN_MEAN = 3; // days per gap
const R_DAY = 0.002; // under one outlier a year

/** Draws one flag per day in order; its own random stream, so the model's values are those of a store without flags. */
export class QFlagSeries {
  private readonly rng: Random;
  private missing = 0; // days left in the current M run

  constructor(
    seed: number,
    name: string,
    private readonly isStatic: boolean,
  ) {
    this.rng = new Random(seed, `${name}\u0000qflag`);
  }

  next(): QFlag {
    if (this.isStatic) return 'S';
    const u = this.rng.uniform();
    if (this.missing > 0) {
      this.missing--;
      return 'M';
    }
    if (u < M_RUN_START) {
      this.missing = Math.floor(this.rng.exponential(M_RUN_MEAN));
      return 'M';
    }
    return u < M_RUN_START + R_DAY ? 'R' : 'O';
  }
}
