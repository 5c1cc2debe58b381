import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../lib/errors.js';
import { encodePathName, MAX_PATH_NAME, parseManifest } from '../../../lib/store/manifest.js';

describe('encodePathName', () => {
  it('yields a single path segment that cannot climb out of a folder', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (name) => {
        const encoded = encodePathName(name);
        // percent-encoded in full: encodeURIComponent's length, and two more for each of . ! ~ * ' ( ) it leaves
        const full = encodeURIComponent(name).length + 2 * (name.match(/[.!~*'()]/g)?.length ?? 0);
        return !/[/\\.]/.test(encoded) && encoded.length <= MAX_PATH_NAME && (full > MAX_PATH_NAME || decodeURIComponent(encoded) === name);
      }),
    );
    // a name too long for a file name keeps a readable start, and two such names never share a folder
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 70, maxLength: 90 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }), (name, tail) => {
        const [a, b] = [encodePathName(name), encodePathName(name + tail)];
        fc.pre(encodeURIComponent(name).length > MAX_PATH_NAME);
        const start = a.slice(0, a.indexOf('~'));
        return (
          a !== b &&
          a.length <= MAX_PATH_NAME &&
          /~[0-9a-f]{16}$/.test(a) &&
          start.length > 100 &&
          encodePathName(`${name}${'x'.repeat(300)}`).startsWith(start)
        );
      }),
    );
    expect(encodePathName('../../etc/passwd')).toBe('%2E%2E%2F%2E%2E%2Fetc%2Fpasswd');
    expect(encodePathName('LAKE MEAD_STATION')).toBe('LAKE%20MEAD_STATION');
  });
});

describe('parseManifest', () => {
  const base = {
    format: 'evap-store',
    version: 2,
    snapshot: 's',
    sequence: 1,
    created: '',
    rowGroupSize: 1024,
    reservoirs: { names: [], metadata: null },
    stations: { names: [], metadata: null, partitions: {} },
    datasets: {},
  };

  it('accepts a well-formed manifest', () => {
    expect(parseManifest(JSON.stringify(base)).snapshot).toBe('s');
  });

  it.each(['../outside.parquet', '/etc/passwd', 'a/../../b.parquet', 'a\\b.parquet', 'a//b'])('refuses a file path %j that leaves the store', (path) => {
    const bad = { ...base, reservoirs: { names: [], metadata: { path, rows: 0, bytes: 0, sha256: '' } } };
    expect(() => parseManifest(JSON.stringify(bad))).toThrow(/outside the store/);
  });

  it('refuses exactly the paths with an empty, "." or ".." segment, a leading "/" or a backslash', () => {
    // the oracle: the rule spelt out segment by segment
    const outside = (path: string) => path.startsWith('/') || path.includes('\\') || path.split('/').some((p) => p === '..' || p === '.' || p === '');
    const segment = fc.oneof(fc.constantFrom('', '.', '..', '...', '.a', 'a.', 'a', 'b c', '\\', 'é'), fc.string({ maxLength: 4 }));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = segments.join('/');
        const entry = { path, rows: 0, bytes: 0, sha256: 'a'.repeat(64) };
        const parse = () => parseManifest(JSON.stringify({ ...base, reservoirs: { names: [], metadata: entry } }));
        if (outside(path)) expect(parse).toThrow(/outside the store/);
        else expect(parse().reservoirs.metadata?.path).toBe(path);
      }),
      { numRuns: 500 },
    );
  });

  it('names what is wrong with a foreign or broken file', () => {
    expect(() => parseManifest('{')).toThrow(StoreError);
    expect(() => parseManifest('{"format":"other"}')).toThrow(/not an evap store manifest/);
    expect(() => parseManifest(JSON.stringify({ ...base, version: 99 }))).toThrow(/version 99/);
    expect(() => parseManifest(JSON.stringify({ ...base, version: 99 }))).toThrow(/reads versions 2, 3 and 4$/);
  });

  it('reads a format-3 date-major copy (one file) as a list of one, and refuses one file in format 4', () => {
    const copy = {
      path: 'reservoirs/by-date/dataset=rtma/part-s.parquet',
      ...{ rows: 3, bytes: 100, sha256: 'a'.repeat(64), footerBytes: 20, footerSha256: 'b'.repeat(64) },
      ...{ start: '2021-01-07', end: '2021-01-20', first: 'A', last: 'B' },
    };
    const withCopy = (version: number, byDate: unknown) => JSON.stringify({ ...base, version, datasets: { rtma: { variables: [], partitions: [], byDate } } });
    expect(parseManifest(withCopy(3, copy)).datasets.rtma!.byDate).toEqual([copy]);
    expect(parseManifest(withCopy(4, [{ ...copy, month: '2021-01' }])).datasets.rtma!.byDate).toEqual([{ ...copy, month: '2021-01' }]);
    expect(() => parseManifest(withCopy(4, copy))).toThrow(/date-major copy of rtma is not a list/);
    expect(() => parseManifest(withCopy(4, [{ ...copy, month: '2021-1' }]))).toThrow(/malformed month/);
    expect(() => parseManifest(withCopy(4, [{ ...copy, first: undefined }]))).toThrow(/needs its first and last names/);
    expect(parseManifest(JSON.stringify({ ...base, version: 4, byDateDays: 0 })).byDateDays).toBe(0);
    expect(() => parseManifest(JSON.stringify({ ...base, version: 4, byDateDays: -1 }))).toThrow(/byDateDays is not a whole number/);
    expect(() => parseManifest(JSON.stringify({ ...base, version: 4, byDateDays: '14' }))).toThrow(/byDateDays is not a whole number/);
  });
});

describe('parseManifest on damaged manifests', () => {
  const file = {
    path: 'reservoirs/dataset=rtma/year=2020/part-a.parquet',
    rows: 1,
    bytes: 100,
    sha256: 'a'.repeat(64),
    footerBytes: 40,
    footerSha256: 'b'.repeat(64),
    start: '2020-01-01',
    end: '2020-01-01',
    first: 'A',
    last: 'A',
  };
  const good = {
    format: 'evap-store',
    version: 2,
    snapshot: 's',
    sequence: 1,
    created: '',
    rowGroupSize: 1024,
    reservoirs: { names: ['A'], metadata: null },
    stations: { names: [], metadata: null, partitions: {} },
    datasets: { rtma: { variables: ['pr'], partitions: [{ year: 2020, start: '2020-01-01', end: '2020-01-01', files: [file] }] } },
  };
  const withFile = (change: Record<string, unknown>) => ({
    ...good,
    datasets: { rtma: { variables: ['pr'], partitions: [{ ...good.datasets.rtma.partitions[0]!, files: [{ ...file, ...change }] }] } },
  });

  it('accepts a well-formed one', () => {
    expect(parseManifest(JSON.stringify(good)).datasets.rtma!.partitions[0]!.files).toHaveLength(1);
  });

  it.each([
    ['a negative size', withFile({ bytes: -1 })],
    ['a zero footer', withFile({ footerBytes: 0 })],
    ['a footer larger than its file', withFile({ footerBytes: 101 })],
    ['a fractional row count', withFile({ rows: 1.5 })],
    ['a missing checksum', withFile({ sha256: undefined })],
    ['a malformed date', withFile({ start: '2020/01/01' })],
    ['a file without its names', withFile({ first: 3 })],
    ['partitions that are not a list', { ...good, datasets: { rtma: { variables: [], partitions: {} } } }],
    ['names that are not text', { ...good, reservoirs: { names: [1], metadata: null } }],
    ['no stations', { ...good, stations: null }],
  ])('refuses %s with a StoreError', (_, manifest) => {
    expect(() => parseManifest(JSON.stringify(manifest))).toThrow(StoreError);
  });

  it('reads a manifest of 300,000 files without overflowing the stack', () => {
    const files = Array.from({ length: 300_000 }, (_, i) => ({ ...file, path: `reservoirs/dataset=rtma/year=2020/part-${i}.parquet` }));
    const big = { ...good, datasets: { rtma: { variables: ['pr'], partitions: [{ year: 2020, start: '', end: '', files }] } } };
    expect(parseManifest(JSON.stringify(big)).datasets.rtma!.partitions[0]!.files).toHaveLength(300_000);
  });
});
