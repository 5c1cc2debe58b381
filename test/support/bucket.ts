// Test factory: a real S3-compatible server (s3rver, an npm dev dependency) on a loopback port over a temporary
// folder, with the conditional-write proxy in front; stopped after the test file.
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll } from 'vitest';
import { type ConditionalProxy, type Fault, startConditionalProxy } from './conditional-proxy.js';

export interface TestBucket {
  bucket: string;
  endpoint: string; // the proxy: conditional writes honoured, as S3 does
  rawEndpoint: string; // s3rver itself: conditional writes ignored
  env: NodeJS.ProcessEnv; // the AWS environment pointing at the proxy
  proxy: ConditionalProxy;
  location(prefix: string): string; // s3://bucket/prefix
  close(): Promise<void>;
}

/** Starts s3rver with one bucket, and the proxy in front of it. */
export async function startTestBucket(options: { fault?: (method: string, key: string) => Fault } = {}): Promise<TestBucket> {
  const directory = await mkdtemp(join(tmpdir(), 'evap-s3-'));
  const bucket = 'evap-test';
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  const rawEndpoint = `http://127.0.0.1:${address.port}`;
  const proxy = await startConditionalProxy(rawEndpoint, options.fault);
  const env = { AWS_ENDPOINT_URL: proxy.url, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await proxy.close();
    await server.close();
    await rm(directory, { recursive: true, force: true });
  };
  afterAll(close);
  return { bucket, endpoint: proxy.url, rawEndpoint, env, proxy, location: (prefix) => `s3://${bucket}/${prefix}`, close };
}
