// The test aid's own test: behind the proxy, s3rver refuses the conditional PUTs that S3 refuses; without it, it does not.
import { describe, expect, it } from 'vitest';
import { S3Client } from '../../lib/store/s3.js';
import { startTestBucket } from './bucket.js';

const bucket = await startTestBucket();
const credentials = { region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', attempts: 1 };
const proxied = new S3Client(bucket.bucket, { ...credentials, endpoint: bucket.endpoint });
const raw = new S3Client(bucket.bucket, { ...credentials, endpoint: bucket.rawEndpoint });
const text = (s: string) => new TextEncoder().encode(s);

describe('the conditional-write proxy', () => {
  it('refuses If-None-Match: * over an existing object and a stale If-Match, with 412, as S3 does', async () => {
    expect((await proxied.send('PUT', 'k/one', { body: text('a'), headers: { 'if-none-match': '*' } })).status).toBe(200);
    expect((await proxied.send('PUT', 'k/one', { body: text('b'), headers: { 'if-none-match': '*' } })).status).toBe(412);
    const tag = (await proxied.send('HEAD', 'k/one')).headers.get('etag')!;
    expect((await proxied.send('PUT', 'k/one', { body: text('c'), headers: { 'if-match': tag } })).status).toBe(200);
    expect((await proxied.send('PUT', 'k/one', { body: text('d'), headers: { 'if-match': tag } })).status).toBe(412); // the tag went with 'a'
    expect((await proxied.send('PUT', 'k/none', { body: text('e'), headers: { 'if-match': tag } })).status).toBe(404);
    expect(new TextDecoder().decode((await proxied.send('GET', 'k/one')).body)).toBe('c');
  });

  it('lets exactly one of many concurrent exclusive creations through', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => proxied.send('PUT', 'k/race', { body: text(`writer ${i}`), headers: { 'if-none-match': '*' } })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 412)).toHaveLength(11);
    const winner = answers.findIndex((a) => a.status === 200);
    expect(new TextDecoder().decode((await proxied.send('GET', 'k/race')).body)).toBe(`writer ${winner}`);
  });

  it('never shows a reader half of an object being replaced', async () => {
    const big = (c: string) => text(c.repeat(4 << 20));
    await proxied.send('PUT', 'k/big', { body: big('x') });
    const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // s3rver alone answered these reads with 0 to 750,000 of the 4 MiB while the PUT was writing
    const [, ...reads] = await Promise.all([
      proxied.send('PUT', 'k/big', { body: big('y') }),
      ...Array.from({ length: 8 }, (_, i) => later(i * 3).then(() => proxied.send('GET', 'k/big'))),
    ]);
    for (const r of reads) {
      expect(r.body.byteLength).toBe(4 << 20);
      expect(new Set(new TextDecoder().decode(r.body)).size).toBe(1);
    }
  });

  it('is needed: s3rver alone accepts both conditional PUTs it should refuse', async () => {
    await raw.send('PUT', 'k/raw', { body: text('a') });
    expect((await raw.send('PUT', 'k/raw', { body: text('b'), headers: { 'if-none-match': '*' } })).status).toBe(200);
    expect((await raw.send('PUT', 'k/raw', { body: text('c'), headers: { 'if-match': '"0"' } })).status).toBe(200);
  });
});
