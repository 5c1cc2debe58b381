import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countParts } from '../../server/params.js';

describe('countParts', () => {
  it('counts the parts of a multipart body, whatever the parts hold besides a delimiter line', () => {
    const boundary = fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,70}$/);
    const content = fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b));
    fc.assert(
      fc.property(boundary, fc.array(content, { maxLength: 20 }), fc.boolean(), (b, contents, preamble) => {
        const parts = contents.map((c) => Buffer.concat([Buffer.from(`--${b}\r\ncontent-disposition: form-data; name="f"\r\n\r\n`), c, Buffer.from(`--${b}`), Buffer.from('\r\n')]));
        const body = Buffer.concat([Buffer.from(preamble ? 'preamble\r\n' : ''), ...parts, Buffer.from(`--${b}--\r\n`)]);
        fc.pre(contents.every((c) => !Buffer.concat([Buffer.from('\r\n'), c, Buffer.from(`--${b}`)]).includes(`\r\n--${b}`)));
        expect(countParts(body, b, 1000)).toBe(contents.length);
      }),
    );
  });

  it('stops counting past the bound', () => {
    const body = Buffer.from(`${'--q\r\n\r\nx\r\n'.repeat(100_000)}--q--\r\n`);
    expect(countParts(body, 'q', 16)).toBe(16);
    expect(countParts(body, 'q', 1e6)).toBe(100_000);
  });
});
