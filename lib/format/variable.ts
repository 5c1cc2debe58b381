// A requested variable as the answer writes it: its wire key and its conversion from the stored metric values.
import type { DatasetName, UnitName } from '../catalogue.js';

/** A requested variable, resolved: its wire key and where its values come from. */
export interface ResolvedVariable {
  name: string;
  dataset: DatasetName | null; // null for station variables
  unit: UnitName;
  key: string; // `<name> (<unit label>)` in the requested unit system
  factor: number; // the conversion from the stored metric value into the requested unit system
  offset: number;
}

/** A variable checked against the catalogue, before the unit system gives it a key and a conversion. */
export type CheckedVariable = Omit<ResolvedVariable, 'key' | 'factor' | 'offset'>;
