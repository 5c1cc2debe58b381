import { roundValue } from '../units.js';

/** The wire's rounding (units.ts roundValue), but never -0: a stored value of the model is a plain zero. */
export function round4(value: number): number {
  return roundValue(value) + 0; // -0 + 0 is 0; every other value is unchanged
}
