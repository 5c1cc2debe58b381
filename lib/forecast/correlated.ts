// The draws of an ensemble member's weather: partly those of the weather to come (a copy of the place's own
// generator, which then draws what the real days will), partly its own, with a share that decays with lead. A
// stand-in for a weather model's skill: day-1 members agree with what happens, week-3 members are climatology.
import { Random } from '../model/random.js';

/** How the share of the weather to come falls with lead: 0.95 at lead 1, e-folding over 5 days. */
export function truthShare(lead: number): number {
  return 0.95 * Math.exp(-(lead - 1) / 5);
}

export class CorrelatedRandom extends Random {
  rho = 1; // the share of the weather to come in the current day's draws

  constructor(
    private readonly truth: Random, // a copy of the place's generator at the issue day
    private readonly own: Random,
  ) {
    super(0, '');
  }

  // one draw of the truth's per draw asked, so that the copy keeps pace with the real days while the member's
  // weather takes the same branches (wet or dry) as theirs
  override uniform(): number {
    const t = this.truth.uniform();
    const o = this.own.uniform();
    return this.own.uniform() < this.rho ? t : o;
  }

  override normal(): number {
    const t = this.truth.normal();
    const o = this.own.normal();
    return this.rho * t + Math.sqrt(1 - this.rho * this.rho) * o;
  }

  /** A draw the real days' storage model makes after the weather: the copy makes it too, to stay in step. */
  skipStorageDraw(): void {
    this.truth.normal();
  }
}
