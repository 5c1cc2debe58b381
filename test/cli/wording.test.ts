// Errors in the flags' words: wire names become flags outside quoted values, never inside them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flagOfWireName, inFlagWords, withFlagSuggestion } from '../../cli/wording.js';

describe('inFlagWords', () => {
  it('names the flag for each wire parameter', () => {
    expect(inFlagWords('start_date is not a calendar date: 2021-02-30 does not exist')).toBe('--start is not a calendar date: 2021-02-30 does not exist');
    expect(inFlagWords('end_date 2020-01-01 is before start_date 2020-02-01')).toBe('--end 2020-01-01 is before --start 2020-02-01');
    expect(inFlagWords('at most 10 RES_NAMES a request')).toBe('at most 10 --names a request');
    expect(inFlagWords('my_start_date and start_dates stay')).toBe('my_start_date and start_dates stay');
  });

  it('leaves a quoted value as it was sent', () => {
    const wire = Object.keys(flagOfWireName);
    fc.assert(
      fc.property(fc.constantFrom(...wire), fc.string(), (name, around) => {
        const quoted = JSON.stringify(`${around}${name}${around}`);
        expect(inFlagWords(`unknown name ${quoted} in ${name}`)).toBe(`unknown name ${quoted} in ${flagOfWireName[name]}`);
      }),
    );
  });
});

describe('withFlagSuggestion', () => {
  it('suggests the flag a mistyped one meant', () => {
    const known = ['names', 'datasets', 'variables', 'start', 'end', 'store'];
    expect(withFlagSuggestion("Unknown option '--name'", known)).toBe(`Unknown option '--name' (did you mean "--names"?)`);
    expect(withFlagSuggestion("Unknown option '--variable'", known)).toBe(`Unknown option '--variable' (did you mean "--variables"?)`);
    expect(withFlagSuggestion("Unknown option '--strat'", known)).toBe(`Unknown option '--strat' (did you mean "--start"?)`);
    expect(withFlagSuggestion("Unknown option '--colour'", known)).toBe("Unknown option '--colour'");
  });
});
