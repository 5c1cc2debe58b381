// Whole files read back into the rows the writer takes: what an ingest merges its new rows into.
import { compareText, type DataFile } from './manifest.js';
import type { PartitionReader } from './partitions.js';
import type { ReservoirRows } from './write.js';

/** Rows of a file, every row group: names (when it has a name column), days, and the given value columns (NaN where absent). */
export async function readFileRows(
  reader: PartitionReader,
  file: DataFile,
  nameColumn: 'RES_NAME' | undefined,
  variables: readonly string[],
): Promise<{ names: string[]; days: Int32Array; values: Record<string, Float64Array> }> {
  const footer = await reader.footer(file);
  const names: string[] = [];
  const days = new Int32Array(file.rows);
  const values = Object.fromEntries(variables.map((v) => [v, new Float64Array(file.rows).fill(NaN)]));
  for (let g = 0; g < footer.metadata.row_groups.length; g++) {
    const at = footer.groupStarts[g]!;
    days.set((await reader.column(file, g, 'date')) as Int32Array, at);
    if (nameColumn) names.push(...((await reader.column(file, g, nameColumn)) as readonly string[]));
    for (const v of variables) {
      const column = (await reader.column(file, g, v)) as Float64Array | undefined;
      if (column) values[v]!.set(column, at);
    }
  }
  return { names, days, values };
}

/** Rows of several files as one set of columns, in the order given. */
export function concatRows(parts: readonly ReservoirRows[], variables: readonly string[]): ReservoirRows {
  const total = parts.reduce((n, p) => n + p.days.length, 0);
  const days = new Int32Array(total);
  const values = Object.fromEntries(variables.map((v) => [v, new Float64Array(total)]));
  const names: string[] = [];
  let at = 0;
  for (const p of parts) {
    days.set(p.days, at);
    for (const v of variables) values[v]!.set(p.values[v]!, at);
    for (const n of p.names) names.push(n);
    at += p.days.length;
  }
  return { names, days, values };
}

/** Rows sorted by name then date (files of several periods hold the same names). */
export function sortRows(rows: ReservoirRows): ReservoirRows {
  const order = Array.from(rows.days, (_, i) => i);
  order.sort((a, b) => compareText(rows.names[a]!, rows.names[b]!) || rows.days[a]! - rows.days[b]!);
  if (order.every((i, k) => i === k)) return rows;
  return {
    names: order.map((i) => rows.names[i]!),
    days: Int32Array.from(order, (i) => rows.days[i]!),
    values: Object.fromEntries(Object.entries(rows.values).map(([v, c]) => [v, Float64Array.from(order, (i) => c[i]!)])),
  };
}
