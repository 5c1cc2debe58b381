// What a recompute changes: values counted against the stored ones at the wire's rounding, and the largest change.
import { formatDay } from '../dates.js';

/** The largest change of a recompute. */
export interface LargestChange {
  name: string;
  date: string;
  variable: string;
  stored: number | null;
  computed: number;
}

/** Counts computed values against stored ones; the largest change is the first of equals in (name, day, variable) order, whatever order they come in. */
export class ChangeTally {
  values = 0;
  changed = 0;
  largest: LargestChange | null = null;
  private size = -1;
  private at = { name: '', day: 0, variable: 0 };

  /** Counts one value (`stored` NaN: not stored); `variable` is its index in the order of modelVariables. */
  add(name: string, day: number, variable: number, label: string, stored: number, computed: number): void {
    this.values++;
    if (stored === computed) return;
    this.changed++;
    const change = Number.isNaN(stored) ? Infinity : Math.abs(computed - stored);
    if (change < this.size || (change === this.size && !this.before(name, day, variable))) return;
    this.size = change;
    this.at = { name, day, variable };
    this.largest = { name, date: formatDay(day), variable: label, stored: Number.isNaN(stored) ? null : stored, computed };
  }

  private before(name: string, day: number, variable: number): boolean {
    const at = this.at;
    return name < at.name || (name === at.name && (day < at.day || (day === at.day && variable < at.variable)));
  }
}
