// Staged rows merged into stored rows, against a plain map of (name, day) -> values: staged values replace what they
// give, new rows only where a value may create one, columns only for variables stored or given a number; rows sorted
// by name (code-unit order) then day. Absorbing a later staging equals staging its values after.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeReservoirRows, mergeStationRows, type StagedPartition, Staging } from '../../../lib/ingest/stage.js';
import type { ReservoirRows } from '../../../lib/writer/write.js';

const DAY = 18_600; // 2020-12-04: every staged day falls in 2020
const STORED = ['NetE', 'E_volume']; // what the stored rows hold of nete-volume-calcs
type Set_ = { name: string; day: number; variable: number; value: number; creates: boolean };

const name = fc.constantFrom('A', 'B', 'a', 'Ä', 'B2');
const value = fc.oneof(fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.constant(NaN));
const storedRows = fc
  .uniqueArray(fc.tuple(name, fc.integer({ min: 0, max: 6 })), { maxLength: 12, selector: ([n, d]) => `${n}|${d}` })
  .chain((keys) => fc.tuple(fc.constant(keys), fc.array(fc.tuple(value, value), { minLength: keys.length, maxLength: keys.length })))
  .map(([keys, values]): ReservoirRows => {
    const order = keys.map((_, i) => i).sort((i, j) => (keys[i]![0] < keys[j]![0] ? -1 : keys[i]![0] > keys[j]![0] ? 1 : keys[i]![1] - keys[j]![1]));
    return {
      names: order.map((i) => keys[i]![0]),
      days: Int32Array.from(order, (i) => DAY + keys[i]![1]),
      values: Object.fromEntries(STORED.map((v, j) => [v, Float64Array.from(order, (i) => values[i]![j]!)])),
    };
  });
// variable indices of nete-volume-calcs' staged columns: NetE, E_volume, NetE_volume, then the flags qflag, status
const sets = fc.array(
  fc.record({ name, day: fc.integer({ min: 0, max: 6 }).map((d) => DAY + d), variable: fc.integer({ min: 0, max: 4 }), value, creates: fc.boolean() }),
  { maxLength: 15 },
);

function stage(staging: Staging, operations: readonly Set_[]): StagedPartition {
  const partition = staging.reservoir('nete-volume-calcs', DAY);
  for (const { name, day, variable, value, creates } of operations) partition.set(name, day, variable, value, creates);
  return partition;
}

// The oracle: rows in a map, staged cells applied as plain updates.
function expectedMerge(old: ReservoirRows | undefined, operations: readonly Set_[], variables: readonly string[]) {
  const rows = new Map<string, { name: string; day: number; values: Map<string, number> }>();
  old?.names.forEach((n, i) =>
    rows.set(`${n}|${old.days[i]}`, { name: n, day: old.days[i]!, values: new Map(Object.entries(old.values).map(([v, c]) => [v, c[i]!])) }),
  );
  const cells = new Map<string, { name: string; day: number; given: Map<string, number>; creates: boolean }>();
  for (const s of operations) {
    const key = `${s.name}|${s.day}`;
    const cell = cells.get(key) ?? { name: s.name, day: s.day, given: new Map(), creates: false };
    cell.given.set(variables[s.variable]!, s.value);
    cell.creates ||= s.creates;
    cells.set(key, cell);
  }
  let added = 0;
  let replaced = 0;
  for (const [key, cell] of cells) {
    const row = rows.get(key);
    if (row) replaced++;
    else if (cell.creates) added++;
    else continue;
    const target = row ?? { name: cell.name, day: cell.day, values: new Map() };
    for (const [v, x] of cell.given) target.values.set(v, x);
    rows.set(key, target);
  }
  const numbers = new Set(operations.filter((s) => !Number.isNaN(s.value)).map((s) => variables[s.variable]!));
  const columns = variables.filter((v) => numbers.has(v) || (old !== undefined && v in old.values));
  const sorted = [...rows.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.day - b.day));
  return {
    names: sorted.map((r) => r.name),
    days: sorted.map((r) => r.day),
    values: Object.fromEntries(columns.map((v) => [v, sorted.map((r) => r.values.get(v) ?? NaN)])),
    added,
    replaced,
  };
}

const plain = (merged: { rows: { names?: readonly string[]; days: Int32Array; values: Record<string, Float64Array> }; added: number; replaced: number }) => ({
  names: merged.rows.names,
  days: Array.from(merged.rows.days),
  values: Object.fromEntries(Object.entries(merged.rows.values).map(([v, c]) => [v, Array.from(c)])),
  added: merged.added,
  replaced: merged.replaced,
});

describe('mergeReservoirRows', () => {
  it('replaces what staged values give, adds the rows they may create, and keeps every other stored row', () => {
    fc.assert(
      fc.property(fc.option(storedRows, { nil: undefined }), sets, (old, operations) => {
        const partition = stage(new Staging(), operations);
        expect(plain(mergeReservoirRows(old, partition))).toEqual(expectedMerge(old, operations, partition.variables));
      }),
      { numRuns: 400 },
    );
  });
});

describe('mergeStationRows', () => {
  it("merges one station's days the same way", () => {
    fc.assert(
      fc.property(storedRows, sets, (rows, operations) => {
        const only = rows.names
          .map((n, i) => [n, i] as const)
          .filter(([n]) => n === 'A')
          .map(([, i]) => i);
        const old = { days: Int32Array.from(only, (i) => rows.days[i]!), values: { ATemp: Float64Array.from(only, (i) => rows.values.NetE![i]!) } };
        const partition = new Staging().station('A_STATION');
        const ops = operations.map((s) => ({ ...s, name: 'A_STATION', variable: s.variable === 4 ? partition.variables.indexOf('status') : s.variable }));
        for (const s of ops) partition.set(s.name, s.day, s.variable, s.value, s.creates);
        const expected = expectedMerge({ names: Array.from(old.days, () => 'A_STATION'), days: old.days, values: old.values }, ops, partition.variables);
        const { names: _, ...withoutNames } = expected;
        expect(plain(mergeStationRows(old, partition, 'A_STATION'))).toEqual({ names: undefined, ...withoutNames });
      }),
      { numRuns: 200 },
    );
  });
});

describe('Staging', () => {
  it('absorbs a later staging as if its values had been staged after, and counts the records of both', () => {
    fc.assert(
      fc.property(storedRows, sets, sets, (old, first, later) => {
        const together = new Staging();
        const before = new Staging();
        const after = new Staging();
        stage(together, [...first, ...later]);
        stage(before, first);
        stage(after, later);
        [before.records, after.records] = [first.length, later.length];
        before.absorb(after);
        const partition = before.partitions.values().next().value!;
        expect(before.records).toBe(first.length + later.length);
        // a variable given a number then a gap adds an all-gap column when staged in one go, none when absorbed: the same data
        const data = (merged: ReturnType<typeof plain>) => ({
          ...merged,
          values: Object.fromEntries(Object.entries(merged.values).filter(([v, c]) => v in old.values || c.some((x) => !Number.isNaN(x)))),
        });
        expect(data(plain(mergeReservoirRows(old, partition)))).toEqual(data(plain(mergeReservoirRows(old, together.reservoir('nete-volume-calcs', DAY)))));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps one partition per dataset-year and per station', () => {
    const staging = new Staging();
    expect(staging.reservoir('lem', DAY)).toBe(staging.reservoir('lem', DAY + 20)); // both in 2020
    expect(staging.reservoir('lem', DAY + 40).target).toEqual({ kind: 'reservoirs', dataset: 'lem', year: 2021 });
    expect(staging.reservoir('rtma', DAY)).not.toBe(staging.reservoir('lem', DAY));
    expect(staging.station('X').target).toEqual({ kind: 'stations', name: 'X' });
    expect(staging.partitions.size).toBe(4);
  });
});
