/** Rounds to 4 decimals, halves away from zero, symmetric in sign; never returns -0. */
export function round4(value: number): number {
  const r = Math.round(Math.abs(value) * 1e4) / 1e4;
  return r === 0 ? 0 : value < 0 ? -r : r;
}
