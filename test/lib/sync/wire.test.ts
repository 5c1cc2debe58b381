// The wire table: a query's options survive the trip to the wire (client) and back (server) for every operation,
// each operation names a parameter once, and lists count against the limit their wire name says.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromWire, parametersOf, toWire, type WireOperation, type WireParameter, wireOperations, wireParameters } from '../../../lib/sync/wire.js';

const operations = Object.keys(wireOperations) as WireOperation[];
// what travels: no commas inside an entry, nothing the trimming of a list would change
const entry = fc
  .stringMatching(/^[A-Za-z0-9_\-. ]{0,12}$/)
  .map((s) => s.trim())
  .filter((s) => s !== '');

describe('wire table', () => {
  it('gives every operation each wire name once, so no parameter shadows another', () => {
    for (const operation of operations) {
      const names = parametersOf(operation).map((p) => p.name);
      expect(new Set(names).size, operation).toBe(names.length);
    }
  });

  it('gives one wire name one shape, one limit and one library option wherever it is used', () => {
    const byName = new Map<string, WireParameter>();
    for (const p of Object.values(wireParameters as Record<string, WireParameter>)) {
      const seen = byName.get(p.name) ?? p;
      expect([p.option, p.shape, p.limit], p.name).toEqual([seen.option, seen.shape, seen.limit]);
      byName.set(p.name, p);
    }
  });

  it('carries any options of any operation to a query string and back unchanged', () => {
    const options = fc
      .constantFrom(...operations)
      .chain((operation) =>
        fc
          .record(
            Object.fromEntries(
              parametersOf(operation).map((p) => [
                p.option,
                fc.option<string | string[]>(p.shape === 'list' ? fc.array(entry, { minLength: 1, maxLength: 4 }) : entry, { nil: undefined }),
              ]),
            ),
          )
          .map((query) => ({ operation, query: query as Record<string, string | string[] | undefined> })),
      );
    fc.assert(
      fc.property(options, ({ operation, query }) => {
        // as the client writes a URL: each value present, a list comma-separated
        const search = new URLSearchParams();
        for (const [name, value] of Object.entries(toWire(query, operation)))
          if (value !== undefined) search.set(name, typeof value === 'string' ? value : value.join(','));
        // as the server reads it: a list split at commas and trimmed
        const back = fromWire<Record<string, unknown>>(parametersOf(operation), (name, shape) => {
          const value = search.get(name) ?? undefined;
          return value === undefined || shape === 'one' ? value : value.split(',').map((s) => s.trim());
        });
        expect(back).toEqual(query);
      }),
    );
  });
});
