// Where a store lives: a folder or an s3:// location, each opened as the Storage of its kind, checked by what they do.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStorage } from '../../../lib/store/location.js';
import { S3Client, s3OptionsFromEnv } from '../../../lib/store/s3.js';
import { tempDir } from '../../helpers.js';
import { startTestBucket } from '../../support/bucket.js';

const bucket = await startTestBucket();

describe('openStorage', () => {
  it('opens a folder as files on this machine', async () => {
    const dir = await tempDir();
    const storage = openStorage(dir);
    expect(storage.location).toBe(resolve(dir));
    await storage.write('a/b.json', '{"x":1}');
    expect(await readFile(join(dir, 'a', 'b.json'), 'utf8')).toBe('{"x":1}');
    expect(await storage.create('a/b.json', 'again')).toBe(false); // taken: created once only
  });

  it('opens s3://bucket/prefix as objects of that bucket, with the AWS environment given', async () => {
    const storage = openStorage(bucket.location('storage-test'), bucket.env);
    await storage.write('a/b.json', '{"x":1}');
    // the bucket itself, asked straight (no prefix), holds the object under the prefix
    const direct = new S3Client(bucket.bucket, { ...s3OptionsFromEnv(bucket.env), endpoint: bucket.rawEndpoint });
    expect((await direct.list('storage-test/')).map((o) => o.key)).toEqual(['storage-test/a/b.json']);
    expect(new TextDecoder().decode((await direct.send('GET', 'storage-test/a/b.json')).body)).toBe('{"x":1}');
    expect((await storage.list('a')).map((f) => f.path)).toEqual(['a/b.json']);
  });

  it('passes a Storage through as it is', async () => {
    const storage = openStorage(await tempDir());
    expect(openStorage(storage)).toBe(storage);
  });
});
