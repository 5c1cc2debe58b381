// Run by requests.test.ts inside a mount namespace of its own, with argv[2] a 64 KiB tmpfs: key requests sent through
// the handler until the disk is full, then the file read back. Prints one JSON line: the statuses and what was read.
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from '../../../lib/open/store.js';
import { createHandler } from '../../../server/app.js';
import { fromFetchRequest } from '../../../server/incoming.js';
import { KeyRing } from '../../../server/keys/auth.js';
import { createKeyRequests, readKeyRequests } from '../../../server/keys/requests.js';

const dir = process.argv[2]!;
const file = join(dir, 'requests');
// fill the disk but for a few kilobytes: each request line is about 300 bytes, so the disk fills within a line
const filler = await open(join(dir, 'filler'), 'w');
await filler.write(Buffer.alloc(60 * 1024));
await filler.close();
const handler = createHandler({
  store: await openStore(), // the demo store
  keys: KeyRing.fromKeys(['k']),
  keyRequests: createKeyRequests(file, { perMinute: 1000 }),
  logError: () => {},
});
const results: { id?: string; status: number; detail?: string }[] = [];
for (let i = 0; i < 40; i++) {
  const fields = { name: `Client ${i}`, email: `c${i}@example.com`, justification: `reservoir losses ${'x'.repeat(200)}` };
  const response = await handler(fromFetchRequest(new Request(`http://x/auth/request_key?${new URLSearchParams(fields)}`)));
  const body = (await response.json()) as { request_id?: string; detail?: string };
  results.push({ id: body.request_id, status: response.status, detail: body.detail });
}
await writeFile(join(dir, 'filler'), ''); // room again: the next request must land on a line of its own
const after = await handler(
  fromFetchRequest(new Request(`http://x/auth/request_key?${new URLSearchParams({ name: 'Late', email: 'late@example.com', justification: 'after' })}`)),
);
const late = ((await after.json()) as { request_id: string }).request_id;
const text = await readFile(file, 'utf8');
console.log(JSON.stringify({ results, late, listed: (await readKeyRequests(file)).map((r) => r.id), lines: text.split('\n') }));
process.exit(0);
