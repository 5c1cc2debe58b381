import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MultipartError, parseMultipart } from '../../server/multipart.js';

// A body as a client writes it (RFC 7578), with an optional preamble and epilogue.
function write(boundary: string, parts: { name: string; file: boolean; bytes: Uint8Array }[], preamble: string, epilogue: string): Buffer {
  return Buffer.concat([
    Buffer.from(preamble ? `${preamble}\r\n` : ''),
    ...parts.flatMap((p) => [
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name.replace(/["\\]/g, '\\$&')}"${p.file ? '; filename="f.bin"' : ''}\r\nContent-Type: application/octet-stream\r\n\r\n`),
      p.bytes,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--${epilogue}`),
  ]);
}

describe('parseMultipart', () => {
  it('gives back every part as written, whatever the parts hold besides a boundary line', () => {
    const boundary = fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,70}$/);
    const part = fc.record({ name: fc.string({ minLength: 1, maxLength: 12 }).filter((n) => !/[\r\n]/.test(n)), file: fc.boolean(), bytes: fc.uint8Array({ maxLength: 64 }) });
    fc.assert(
      fc.property(boundary, fc.array(part, { maxLength: 8 }), fc.constantFrom('', 'a preamble'), fc.constantFrom('', '\r\n', '\r\nan epilogue'), (b, parts, preamble, epilogue) => {
        fc.pre(parts.every((p) => !Buffer.concat([Buffer.from('\r\n'), p.bytes, Buffer.from('\r\n')]).includes(`\r\n--${b}`)));
        const parsed = parseMultipart(write(b, parts, preamble, epilogue), b, 16);
        expect(parsed.map((p) => ({ name: p.name, file: p.file, bytes: [...p.bytes] }))).toEqual(parts.map((p) => ({ ...p, bytes: [...p.bytes] })));
      }),
      { numRuns: 500 },
    );
  });

  it('stops at the bound, without reading the rest', () => {
    const body = Buffer.from(`${'--q\r\ncontent-disposition: form-data; name="x"\r\n\r\ny\r\n'.repeat(100_000)}--q--\r\n`);
    expect(() => parseMultipart(body, 'q', 16)).toThrow(new MultipartError('too-many', 'the multipart body has more than 16 parts: send the four shapefile parts'));
    expect(parseMultipart(body, 'q', 1e6)).toHaveLength(100_000);
  });

  it('refuses a body cut short, a part without a name or disposition, and a missing boundary', () => {
    const whole = write('zz', [{ name: 'shapefile_shp', file: true, bytes: new Uint8Array([1, 2, 3]) }], '', '\r\n');
    for (const bad of [whole.subarray(0, whole.length - 9), Buffer.from('--zz\r\n\r\nno headers\r\n--zz--'), Buffer.from('--zz\r\ncontent-disposition: form-data\r\n\r\nx\r\n--zz--'), Buffer.from('no boundary at all')]) {
      expect(() => parseMultipart(bad, 'zz', 16)).toThrow(/the multipart body is malformed/);
    }
  });
});
