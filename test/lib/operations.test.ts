// The operations table: a query's options survive the trip to the wire (client) and back (server) for every operation,
// each operation names a parameter once, lists count against the limit their wire name says, and every path
// parameter of a path is one of its operation's parameters.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asList, fromWire, type OperationName, operations, type Parameter, parameters, parametersOf, pathOf, toWire } from '../../lib/operations.js';

const names = Object.keys(operations) as OperationName[];
// what travels: no commas inside an entry, nothing the trimming of a list would change
const entry = fc
  .stringMatching(/^[A-Za-z0-9_\-. ]{0,12}$/)
  .map((s) => s.trim())
  .filter((s) => s !== '');

describe('operations', () => {
  it('gives every operation each wire name once, so no parameter shadows another', () => {
    for (const operation of names) {
      const wire = parametersOf(operation).map((p) => p.name);
      expect(new Set(wire).size, operation).toBe(wire.length);
    }
  });

  it('gives one wire name one kind, one limit, one side and one library option wherever it is used', () => {
    const byName = new Map<string, Parameter>();
    for (const p of Object.values(parameters as Record<string, Parameter>)) {
      const seen = byName.get(p.name) ?? p;
      expect([p.option, p.kind, p.limit, p.side], p.name).toEqual([seen.option, seen.kind, seen.limit, seen.side]);
      byName.set(p.name, p);
    }
  });

  it('has a parameter for every {segment} of a path, and fills it with the value given or its default', () => {
    for (const operation of names) {
      const { path } = operations[operation];
      const segments = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(segments, operation).toEqual(
        parametersOf(operation)
          .filter((p) => p.in === 'path')
          .map((p) => p.name),
      );
      expect(pathOf(operation)).not.toMatch(/[{}]/);
    }
    expect(pathOf('reservoirAggregates')).toBe('/timeseries/monthly/reservoirs/daterange');
    expect(pathOf('stationAggregates', { interval: 'water-year' })).toBe('/timeseries/water-year/stations/daterange');
  });

  it("carries any options of any operation to a query string and back unchanged, the server's own and the path's aside", () => {
    const options = fc.constantFrom(...names).chain((operation) =>
      fc
        .record(
          Object.fromEntries(
            parametersOf(operation)
              .filter((p) => p.in !== 'path')
              .map((p) => [
                p.option,
                fc.option<string | string[]>(p.kind === 'list' ? fc.array(entry, { minLength: 1, maxLength: 4 }) : entry, { nil: undefined }),
              ]),
          ),
        )
        .map((query) => ({ operation, query: query as Record<string, string | string[] | undefined> })),
    );
    fc.assert(
      fc.property(options, ({ operation, query }) => {
        // as the client writes a URL: each value present, a list comma-separated
        const search = new URLSearchParams();
        for (const [name, value] of Object.entries(toWire(operation, query)))
          if (value !== undefined) search.set(name, typeof value === 'string' ? value : value.join(','));
        // as the server reads it: a list split at commas and trimmed
        const back = fromWire(operation, (p) => {
          const value = search.get(p.name) ?? undefined;
          return value === undefined || p.kind === 'one' ? value : value.split(',').map((s) => s.trim());
        });
        const library = new Set(parametersOf(operation).flatMap((p) => (p.side === 'library' ? [p.option] : [])));
        expect(back).toEqual(Object.fromEntries(Object.entries(query).filter(([option, value]) => library.has(option) && value !== undefined)));
      }),
    );
  });
});

describe('asList: a list option given as text', () => {
  const item = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_ -]{0,20}[A-Za-z0-9_]$/); // trimmed, no comma: as names are
  it('splits a string at commas and trims, as the wire does; leaves a comma-free list as it is', () => {
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 8 }), fc.constantFrom(',', ', ', ' ,'), (list, comma) => {
        expect(asList(list.join(comma))).toEqual(list);
        expect(asList(list)).toEqual(list);
        expect(asList([list.join(comma), 'X'])).toEqual([...list, 'X']);
      }),
    );
  });
});
