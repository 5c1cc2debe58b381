// Store locations: a folder path opens a folder, `s3://bucket/prefix` a bucket, and an opened Storage passes through.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStorage } from '../../../lib/store/location.js';
import { tempDir, writeTinyStore } from '../../helpers.js';

describe('openStorage', () => {
  it('opens a folder path as the folder, which reads its files', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const storage = openStorage(dir);
    expect(storage.location).toBe(resolve(dir));
    expect(await storage.exists('manifest.json')).toBe(true);
  });

  it('opens an s3:// location as a bucket, configured by the environment given', () => {
    const storage = openStorage('s3://some-bucket/a/prefix', { AWS_ENDPOINT_URL: 'http://127.0.0.1:9', AWS_REGION: 'us-east-1' });
    expect(storage.location).toBe('s3://some-bucket/a/prefix');
  });

  it('passes an opened Storage through unchanged', async () => {
    const storage = openStorage(await tempDir());
    expect(openStorage(storage)).toBe(storage);
  });
});
