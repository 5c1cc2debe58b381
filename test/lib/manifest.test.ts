import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../lib/errors.js';
import { encodePathName, parseManifest } from '../../lib/manifest.js';

describe('encodePathName', () => {
  it('yields a single path segment that cannot climb out of a folder', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (name) => {
        const encoded = encodePathName(name);
        return !/[/\\.]/.test(encoded) && decodeURIComponent(encoded) === name;
      }),
    );
    expect(encodePathName('../../etc/passwd')).toBe('%2E%2E%2F%2E%2E%2Fetc%2Fpasswd');
    expect(encodePathName('LAKE MEAD_STATION')).toBe('LAKE%20MEAD_STATION');
  });
});

describe('parseManifest', () => {
  const base = { format: 'evap-store', version: 2, snapshot: 's', sequence: 1, created: '', rowGroupSize: 1024, reservoirs: { names: [], metadata: null }, stations: { names: [], metadata: null, partitions: {} }, datasets: {} };

  it('accepts a well-formed manifest', () => {
    expect(parseManifest(JSON.stringify(base)).snapshot).toBe('s');
  });

  it.each(['../outside.parquet', '/etc/passwd', 'a/../../b.parquet', 'a\\b.parquet', 'a//b'])('refuses a file path %j that leaves the store', (path) => {
    const bad = { ...base, reservoirs: { names: [], metadata: { path, rows: 0, bytes: 0, sha256: '' } } };
    expect(() => parseManifest(JSON.stringify(bad))).toThrow(/outside the store/);
  });

  it('names what is wrong with a foreign or broken file', () => {
    expect(() => parseManifest('{')).toThrow(StoreError);
    expect(() => parseManifest('{"format":"other"}')).toThrow(/not an evap store manifest/);
    expect(() => parseManifest(JSON.stringify({ ...base, version: 99 }))).toThrow(/version 99/);
  });
});
