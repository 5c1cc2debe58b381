import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MultipartError, parseMultipart } from '../../server/body.js';

// A name or filename as browsers quote it (the HTML standard): the backslash bare; ", CR and LF percent-encoded.
const escapeName = (name: string) => name.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');

// A body as a client writes it (RFC 7578), with an optional preamble and epilogue.
function write(boundary: string, parts: { name: string; file: boolean; bytes: Uint8Array }[], preamble: string, epilogue: string): Buffer {
  return Buffer.concat([
    Buffer.from(preamble ? `${preamble}\r\n` : ''),
    ...parts.flatMap((p) => [
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(p.name)}"${p.file ? '; filename="f.bin"' : ''}\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      p.bytes,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--${epilogue}`),
  ]);
}

// The parts as undici's FormData (the Fetch standard's encoder, not ours) writes them: a string value has its line
// breaks made CRLF, a Blob is a file part with its bytes untouched.
type Entry = { name: string; value: string } | { name: string; bytes: Uint8Array; filename: string };
async function encode(entries: Entry[]): Promise<{ body: Uint8Array; boundary: string }> {
  const form = new FormData();
  for (const e of entries) {
    if ('value' in e) form.append(e.name, e.value);
    else form.append(e.name, new Blob([new Uint8Array(e.bytes)]), e.filename);
  }
  const response = new Response(form);
  const boundary = /boundary=(.+)$/.exec(response.headers.get('content-type')!)![1]!;
  return { body: new Uint8Array(await response.arrayBuffer()), boundary };
}

describe('parseMultipart', () => {
  it("reads what undici's FormData writes as undici's own parser (the Fetch standard's) reads it: names, file-ness and bytes", async () => {
    // backslashes, quotes, CR, LF and "%22" in names and filenames included: the quoting is the browsers', not RFC 2045's
    const text = (minLength: number, maxLength: number) =>
      fc.oneof(fc.string({ unit: 'grapheme', minLength, maxLength }), fc.stringMatching(new RegExp(`^[a\\\\"\\r\\n%20D2A]{${minLength},8}$`)));
    const entry = fc.oneof(
      fc.record({ name: text(0, 10), value: fc.string({ unit: 'grapheme', maxLength: 40 }) }),
      fc.record({ name: text(0, 10), bytes: fc.uint8Array({ maxLength: 200 }), filename: text(1, 12) }), // undici writes no empty filename
    );
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 10 }), async (entries) => {
        const { body, boundary } = await encode(entries);
        const parsed = parseMultipart(body, boundary, 16).map((p) => ({ name: p.name, file: p.file, bytes: Buffer.from(p.bytes).toString('hex') }));
        const oracle = await new Response(body as Uint8Array<ArrayBuffer>, {
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        }).formData();
        const expected = await Promise.all(
          [...oracle].map(async ([name, value]) => ({
            name,
            file: typeof value !== 'string',
            bytes: (typeof value === 'string' ? Buffer.from(value) : Buffer.from(await value.arrayBuffer())).toString('hex'),
          })),
        );
        expect(parsed).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('reads a name ending in a backslash and a filename holding a quote as a browser sends them', async () => {
    const { body, boundary } = await encode([
      { name: 'dir\\', value: 'a' },
      { name: 'shapefile_shp', bytes: new Uint8Array([1, 2]), filename: 'say "hi".shp' },
      { name: 'C:\\', bytes: new Uint8Array([3]), filename: 'back\\slash\\' },
      { name: 'last', value: 'b' },
    ]);
    expect(Buffer.from(body).toString('latin1')).toContain('name="dir\\"\r\n'); // what the encoder sends: the backslash bare
    expect(parseMultipart(body, boundary, 8).map((p) => [p.name, p.file, [...p.bytes]])).toEqual([
      ['dir\\', false, [97]],
      ['shapefile_shp', true, [1, 2]],
      ['C:\\', true, [3]],
      ['last', false, [98]],
    ]);
  });

  it('reads exactly maxParts parts and refuses one more, for any bound', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 }), async (count, maxParts) => {
        const { body, boundary } = await encode(Array.from({ length: count }, (_, i) => ({ name: `p${i}`, value: String(i) })));
        if (count <= maxParts) expect(parseMultipart(body, boundary, maxParts).map((p) => p.name)).toEqual(Array.from({ length: count }, (_, i) => `p${i}`));
        else
          expect(() => parseMultipart(body, boundary, maxParts)).toThrow(
            new MultipartError('too-many', `the multipart body has more than ${maxParts} parts: send the four shapefile parts`),
          );
      }),
    );
  });

  it('reads parts of any size up to the whole body, as views into it', async () => {
    const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7919) % 251);
    const { body, boundary } = await encode([
      { name: 'shapefile_shp', bytes: big, filename: 'x.shp' },
      { name: 'empty', value: '' },
    ]);
    const [shp, empty] = parseMultipart(body, boundary, 4);
    expect(Buffer.compare(Buffer.from(shp!.bytes), Buffer.from(big))).toBe(0);
    expect(shp!.bytes.buffer).toBe(body.buffer); // not a copy: a 50 MiB upload is not held twice
    expect({ ...empty, bytes: empty!.bytes.length }).toEqual({ name: 'empty', file: false, bytes: 0 });
  });

  it('reads the disposition parameters as RFC 7578 allows: any case, unquoted, percent-encoded quotes, filename*', () => {
    const body = Buffer.from(
      [
        '--b',
        'CONTENT-DISPOSITION: Form-Data; NAME=plain',
        '',
        '1',
        '--b',
        'content-type: text/plain',
        'Content-Disposition: form-data; filename*=UTF-8\'\'x.shp; name="a %22quoted%22 name\\"',
        '',
        '2',
        '--b \t',
        'content-disposition: form-data; name="semi;colon"; filename=""',
        '',
        '3',
        '--b--',
      ].join('\r\n'),
    );
    expect(parseMultipart(body, 'b', 8).map((p) => [p.name, p.file, Buffer.from(p.bytes).toString()])).toEqual([
      ['plain', false, '1'],
      ['a "quoted" name\\', true, '2'],
      ['semi;colon', true, '3'],
    ]);
    expect(() => parseMultipart(Buffer.from('--b\r\ncontent-disposition: attachment; name="x"\r\n\r\n1\r\n--b--'), 'b', 8)).toThrow(
      /no Content-Disposition: form-data/,
    );
  });

  it('gives back every part as written, whatever the parts hold besides a boundary line', () => {
    const boundary = fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,70}$/);
    const part = fc.record({
      // a name holding "%22" as text comes back as a quote, as in every browser's encoding (it cannot tell them apart)
      name: fc.string({ minLength: 1, maxLength: 12 }).filter((n) => !/%(0A|0D|22)/i.test(n)),
      file: fc.boolean(),
      bytes: fc.uint8Array({ maxLength: 64 }),
    });
    fc.assert(
      fc.property(
        boundary,
        fc.array(part, { maxLength: 8 }),
        fc.constantFrom('', 'a preamble'),
        fc.constantFrom('', '\r\n', '\r\nan epilogue'),
        (b, parts, preamble, epilogue) => {
          fc.pre(parts.every((p) => !Buffer.concat([Buffer.from('\r\n'), p.bytes, Buffer.from('\r\n')]).includes(`\r\n--${b}`)));
          const parsed = parseMultipart(write(b, parts, preamble, epilogue), b, 16);
          expect(parsed.map((p) => ({ name: p.name, file: p.file, bytes: [...p.bytes] }))).toEqual(parts.map((p) => ({ ...p, bytes: [...p.bytes] })));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('stops at the bound, without reading the rest', () => {
    const body = Buffer.from(`${'--q\r\ncontent-disposition: form-data; name="x"\r\n\r\ny\r\n'.repeat(100_000)}--q--\r\n`);
    expect(() => parseMultipart(body, 'q', 16)).toThrow(
      new MultipartError('too-many', 'the multipart body has more than 16 parts: send the four shapefile parts'),
    );
    expect(parseMultipart(body, 'q', 1e6)).toHaveLength(100_000);
  });

  it('refuses a body cut short, a part without a name or disposition, and a missing boundary', () => {
    const whole = write('zz', [{ name: 'shapefile_shp', file: true, bytes: new Uint8Array([1, 2, 3]) }], '', '\r\n');
    for (const bad of [
      whole.subarray(0, whole.length - 9),
      Buffer.from('--zz\r\n\r\nno headers\r\n--zz--'),
      Buffer.from('--zz\r\ncontent-disposition: form-data\r\n\r\nx\r\n--zz--'),
      Buffer.from('no boundary at all'),
    ]) {
      expect(() => parseMultipart(bad, 'zz', 16)).toThrow(/the multipart body is malformed/);
    }
  });
});
