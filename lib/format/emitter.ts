// The shape of a record emitter, which emit.ts generates and row-bytes.ts writes as bytes (neither imports the other),
// and of the variables it is made for.
import type { DatasetName, UnitName } from '../catalogue.js';
import type { WireValue } from '../types.js';

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

/**
 * Appends rows [from, to) of one name to `out`: `(out, name, days, columns, from, to, extra)`. Generated per shape
 * (name key, variable keys and units, which columns are held, attribute keys, output kind):
 * - records: every record is one object literal with a fixed key order, so V8 gives all records one hidden class,
 *   built without transitions, which JSON.stringify then walks on its fast path;
 * - json: one string for the block, exactly the text JSON.stringify gives for those records, without making them
 *   (five times faster than records + JSON.stringify); `name` and `extra` then come as JSON text;
 * - csv: one string for the block, exactly the rows recordsToCsv writes for those records; `name` and `extra` as CSV fields.
 * Values are converted inline with each variable's factor and offset (from the query's plan) and rounded with units.ts's roundValue.
 */
export type Emitter = ((
  out: unknown[],
  name: string,
  days: ArrayLike<number>,
  columns: readonly (ArrayLike<number> | undefined)[],
  from: number,
  to: number,
  extra: readonly WireValue[],
) => void) & { names?: NamesEmitter };

/**
 * Appends rows [from, to) of a block whose row i is name i's (`names[i]`, plain text), those with `seen[i]` set, with
 * no attributes: one date of every name as one string, not a string and a call per name. Returns false where it cannot
 * write them exactly; the caller then emits them name by name.
 */
type NamesEmitter = (
  out: unknown[],
  names: readonly string[],
  seen: ArrayLike<number>,
  days: ArrayLike<number>,
  columns: readonly (ArrayLike<number> | undefined)[],
  from: number,
  to: number,
) => boolean;
