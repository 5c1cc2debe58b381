// The flag readers every command uses: what they accept, and the UsageError (exit 2) naming the flag otherwise.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { choiceFlag, intFlag, listFlag, optionFlags, optionsFromFlags, readArgs, requiredFlag, stringFlag } from '../../cli/args.js';
import { UsageError } from '../../cli/command.js';
import { integerLike } from '../helpers.js';

const spec = { store: { type: 'string' }, force: { type: 'boolean' } } as const;

describe('readArgs', () => {
  it('reads flags in both spellings and positionals in order', () => {
    expect(readArgs(['a', '--store', 'dir', 'b', '--force', '--', '--c'], spec)).toEqual({
      values: { store: 'dir', force: true },
      positionals: ['a', 'b', '--c'],
    });
    expect(readArgs(['--store=x=y'], spec).values.store).toBe('x=y');
  });

  it("throws a UsageError for an unknown flag or a missing value, without node's advice on positionals", () => {
    for (const [argv, message] of [
      [['--stor', 'x'], "Unknown option '--stor'"],
      [['--store'], "Option '--store <value>' argument missing"],
      [['--force=yes'], "Option '--force' does not take an argument"],
    ] as const) {
      let error: unknown;
      try {
        readArgs([...argv], spec);
      } catch (e) {
        error = e;
      }
      expect(error, argv.join(' ')).toBeInstanceOf(UsageError);
      expect((error as Error).message).toContain(message);
      expect((error as Error).message).not.toContain('To specify a positional argument');
    }
  });
});

describe('stringFlag, requiredFlag, listFlag', () => {
  it('gives a string flag, undefined for a boolean or absent one, and requires a non-empty value when asked', () => {
    expect(stringFlag({ a: 'x', b: true }, 'a')).toBe('x');
    expect(stringFlag({ a: 'x', b: true }, 'b')).toBeUndefined();
    expect(stringFlag({}, 'a')).toBeUndefined();
    expect(requiredFlag({ out: 'dir' }, 'out')).toBe('dir');
    for (const values of [{}, { out: '' }, { out: true }]) expect(() => requiredFlag(values, 'out')).toThrow(new UsageError('--out is required'));
  });

  it('splits a list on commas, trimming spaces and dropping empty entries', () => {
    const item = fc.string({ minLength: 1 }).filter((s) => !s.includes(',') && s.trim() === s && s !== '');
    fc.assert(
      fc.property(fc.array(item), fc.array(fc.constantFrom(' ', '  ', '')), (items, pads) => {
        const text = items.map((v, i) => `${pads[i % Math.max(1, pads.length)] ?? ''}${v}${pads[(i + 1) % Math.max(1, pads.length)] ?? ''}`).join(',');
        expect(listFlag({ names: `${text},, ,` }, 'names')).toEqual(items);
      }),
    );
    expect(listFlag({}, 'names')).toBeUndefined();
  });
});

describe('intFlag', () => {
  it('reads any non-negative integer written in decimal, and the fallback when absent', () => {
    fc.assert(
      fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), fc.integer(), (n, fallback) => {
        expect(intFlag(String(n), 'concurrency', fallback)).toBe(n);
        expect(intFlag(undefined, 'concurrency', fallback)).toBe(fallback);
      }),
    );
  });

  it('takes any text iff it is plain decimal digits, as BigInt reads them (not 0x10, 1e3, " 5 " or 5.0)', () => {
    fc.assert(
      fc.property(integerLike, (text) => {
        const read = () => intFlag(text, 'concurrency', 1);
        if (/^\d+$/.test(text) && BigInt(text) <= BigInt(Number.MAX_SAFE_INTEGER)) expect(read()).toBe(Number(BigInt(text)));
        else expect(read).toThrow(new UsageError(`--concurrency must be a non-negative integer, got ${JSON.stringify(text)}`));
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses negatives, fractions, words, blanks and a bare flag, naming the flag', () => {
    const bad = fc.oneof(
      fc.integer({ max: -1 }).map(String),
      fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }).map(String),
      fc.constantFrom('', ' ', 'ten', 'NaN', 'Infinity', '1.5', '-0.5'),
      fc.stringMatching(/^[a-z]+$/),
    );
    fc.assert(
      fc.property(bad, (text) => {
        expect(() => intFlag(text, 'timeout-ms', 1)).toThrow(new UsageError(`--timeout-ms must be a non-negative integer, got ${JSON.stringify(text)}`));
      }),
    );
    expect(() => intFlag(true, 'seed', 1)).toThrow(new UsageError('--seed must be a non-negative integer, got true'));
  });
});

describe('choiceFlag', () => {
  it('gives one of the allowed words or the fallback, and lists them for anything else', () => {
    const allowed = ['monthly', 'annual', 'water-year'] as const;
    for (const word of allowed) expect(choiceFlag({ interval: word }, 'interval', allowed, 'monthly')).toBe(word);
    expect(choiceFlag({}, 'interval', allowed, 'annual')).toBe('annual');
    fc.assert(
      fc.property(
        fc.string().filter((s) => !(allowed as readonly string[]).includes(s)),
        (word) => {
          expect(() => choiceFlag({ interval: word }, 'interval', allowed, 'monthly')).toThrow(
            new UsageError(`--interval must be one of monthly, annual, water-year; got ${JSON.stringify(word)}`),
          );
        },
      ),
    );
  });
});

describe('optionFlags and optionsFromFlags', () => {
  it("gives every query option of the operations a kebab-case flag, and reads an operation's options back from them", () => {
    expect(Object.keys(optionFlags(['stationAggregates']))).toEqual([
      'names',
      'variables',
      'units',
      'start',
      'end',
      'statistic',
      'compare-to',
      'base-start',
      'base-end',
      'also-return',
      'as-of',
    ]);
    const values = { names: 'A, B', start: '2020-01-01', 'also-return': 'qflag', datasets: undefined };
    expect(optionsFromFlags('reservoirTimeseries', values, ['names', 'start', 'also-return', 'datasets'], 'q')).toEqual({
      names: ['A', 'B'],
      start: '2020-01-01',
      alsoReturn: ['qflag'],
    });
    expect(() => optionsFromFlags('stationTimeseries', { datasets: 'res' }, ['datasets'], 'a station query')).toThrow(
      new UsageError('--datasets is not an option of a station query'),
    );
  });

  it('is how evap query reads its flags, and its usage names each of them', async () => {
    const { flags, usage } = await import('../../cli/commands/query.js');
    for (const flag of Object.keys(flags)) expect(usage, flag).toContain(`--${flag}`);
  });
});
