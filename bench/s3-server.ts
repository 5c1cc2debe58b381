// The bench's object store, in its own process so that serving does not share the measured process's event loop:
// s3rver over a temporary folder, plus the test suite's conditional-write proxy (the copy commits through it; reads go
// to s3rver directly). Prints one JSON line {raw, proxy, bucket}; stops on SIGTERM.
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { startConditionalProxy } from '../test/support/conditional-proxy.js';

const directory = await mkdtemp(join(tmpdir(), 'evap-bench-s3-'));
const bucket = 'evap-bench';
const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
const { port } = (await server.run()) as AddressInfo;
const raw = `http://127.0.0.1:${port}`;
const proxy = await startConditionalProxy(raw);
process.stdout.write(`${JSON.stringify({ raw, proxy: proxy.url, bucket })}\n`);
process.once('SIGTERM', async () => {
  await proxy.close();
  await server.close();
  await rm(directory, { recursive: true, force: true });
  process.exit(0);
});
