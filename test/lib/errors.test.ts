// Inside a notebook kernel the library's errors are one line; outside one they keep their stack.
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidParameterError, NotFoundError, StoreError } from '../../lib/errors.js';

const kernelGlobal = globalThis as { __tslab__?: unknown };
afterEach(() => {
  delete kernelGlobal.__tslab__;
});

describe('the errors of lib/errors.ts', () => {
  it('makes stack and inspect one line in a kernel', () => {
    kernelGlobal.__tslab__ = {}; // what tslab's kernel defines
    for (const error of [
      new NotFoundError('RES_NAMES', ['X'], 'reservoir not found: "X"'),
      new InvalidParameterError('units', 'bad units'),
      new StoreError('no store'),
    ]) {
      expect(error.stack).toBe(`${error.name}: ${error.message}`);
      expect(inspect(error)).toBe(`${error.name}: ${error.message}`);
    }
  });

  it('leaves the stack alone elsewhere', () => {
    const error = new NotFoundError('RES_NAMES', ['X'], 'reservoir not found: "X"');
    expect(error.stack!.split('\n').length).toBeGreaterThan(1);
    expect(inspect(error)).toContain('    at ');
  });
});
