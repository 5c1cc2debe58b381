// A water body's fetch where only its area is known: a round lake's (outline.ts gives it from an outline).

/**
 * The fetch of a round lake of this area, the same in every direction: its mean chord, area / diameter = √(πA) / 2.
 * Used where neither an outline nor a fetch is known.
 */
export function fetchFromArea(areaM2: number): number {
  return Math.sqrt(Math.PI * areaM2) / 2;
}
