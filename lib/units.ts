// Metric <-> English conversion and the 4-decimal rounding of the wire, driven by the catalogue.
import { type UnitName, type UnitSystem, units } from './catalogue.js';

/** Rounds to 4 decimals, half away from zero, as the public service's values are. */
export function roundValue(value: number): number {
  if (Math.abs(value) >= 1e15) return value; // no decimals left to round, and scaling by 1e4 could overflow to Infinity
  const scaled = Math.round(Math.abs(value) * 1e4) / 1e4;
  return value < 0 ? -scaled : scaled;
}

/** How a stored metric value becomes a value in the unit system asked for: `value * factor + offset`. */
export interface Conversion {
  factor: number;
  offset: number;
}

const identity: Conversion = { factor: 1, offset: 0 };

/** The conversion of a unit into a unit system, from the catalogue. */
export function conversionOf(unit: UnitName, system: UnitSystem): Conversion {
  if (system === 'metric') return identity;
  const { factor, offset } = units[unit];
  return { factor, offset };
}

/** Applies a conversion; the identity leaves the value as it is (so -0 stays -0, as frame-records.ts writes it). */
export function convert(value: number, { factor, offset }: Conversion): number {
  return factor === 1 && offset === 0 ? value : value * factor + offset;
}

/** Converts a stored metric value into the unit system asked for (values are stored metric). */
export function convertValue(value: number, unit: UnitName, system: UnitSystem): number {
  return convert(value, conversionOf(unit, system));
}

/** Converts a value in the given unit system back to metric (used when ingesting English exports). */
export function toMetric(value: number, unit: UnitName, system: UnitSystem): number {
  if (system === 'metric') return value;
  const { factor, offset } = units[unit];
  return (value - offset) / factor;
}
