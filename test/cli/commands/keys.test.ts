// evap keys and the server's side of the same keys file: a new key works, a revoked one stops working, key requests
// round-trip. The server is its handler in this process, with the keys and the requests file `evap serve --keys-file`
// would use (readConfig, readKeysFile, createKeyRequests); that a running server reads the file again on SIGHUP and on
// change is test/server/process/start.test.ts's subject.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandler, fetchFrom } from '../../../server/app.js';
import { KeyRing, readKeysFile } from '../../../server/keys/auth.js';
import { createKeyRequests } from '../../../server/keys/requests.js';
import { readConfig } from '../../../server/process/config.js';
import { tempDir } from '../../helpers.js';
import { demoStore } from '../../server/harness.js';
import { evap } from '../harness.js';

// the app as `evap serve --keys-file <empty file>` makes it; `status` reads the file again first, as the server does
// when the file changes
async function serveWithKeysFile() {
  const keysFile = join(await tempDir(), 'keys');
  await writeFile(keysFile, '');
  const config = readConfig(['--keys-file', keysFile], {});
  const keys = new KeyRing([]);
  const fetch = fetchFrom(createHandler({ store: await demoStore(), keys, keyRequests: createKeyRequests(config.requestsFile) }));
  const status = async (key: string) => {
    keys.replace((await readKeysFile(keysFile)).digests);
    return (await fetch('/info/list_datasets', { headers: { 'api-key': key } })).status;
  };
  return { keysFile, fetch, status };
}

describe('evap keys', () => {
  it('makes a key the server accepts, lists it without the key, and revokes it', async () => {
    const { keysFile, status } = await serveWithKeysFile();
    const made = await evap(['keys', 'new', '--label', 'alice at the lab', '--keys-file', keysFile]);
    expect(made.code, made.stderr).toBe(0);
    const key = made.stdout.trim();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const text = await readFile(keysFile, 'utf8');
    expect(text).not.toContain(key);
    expect(text).toMatch(/^[0-9a-f]{64} # \d{4}-\d{2}-\d{2} alice at the lab\n$/);
    expect(await status(key)).toBe(200);

    const other = (await evap(['keys', 'new', '--label', 'bob', '--keys-file', keysFile])).stdout.trim();
    const list = await evap(['keys', 'list', '--keys-file', keysFile, '--format', 'csv']);
    expect(list.stdout).not.toContain(key);
    const rows = list.stdout.trim().split('\n');
    expect(rows[0]).toBe('id,created,label');
    expect(rows.slice(1).map((r) => r.split(',')[2])).toEqual(['alice at the lab', 'bob']);
    const id = rows[1]!.split(',')[0]!;
    expect(id).toMatch(/^[0-9a-f]{12}$/);

    const revoked = await evap(['keys', 'revoke', id, '--keys-file', keysFile]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(await status(key)).toBe(401);
    expect(await status(other)).toBe(200);
    const again = await evap(['keys', 'revoke', id, '--keys-file', keysFile]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no key in ${keysFile} has the id or label "${id}"`);
  });

  it('takes a request at GET /auth/request_key, lists it, and issues its key with new --for', async () => {
    const { keysFile, fetch, status } = await serveWithKeysFile();
    const params = new URLSearchParams({ name: 'John Doe', email: 'john.doe@example.com', justification: 'Research on reservoir evaporation' });
    const asked = await fetch(`/auth/request_key?${params}`);
    expect(asked.status).toBe(200);
    const body = await asked.text();
    for (const value of params.values()) expect(body).not.toContain(value); // never echoes what was sent
    const { request_id: id } = JSON.parse(body) as { request_id: string };
    expect((await fetch(`/auth/request_key?name=x&email=not-an-email&justification=y`)).status).toBe(422);

    const pending = await evap(['keys', 'requests', '--keys-file', keysFile, '--format', 'json']);
    expect(JSON.parse(pending.stdout)).toEqual([
      { id, received: expect.any(String), name: 'John Doe', email: 'john.doe@example.com', justification: 'Research on reservoir evaporation', key: 'pending' },
    ]);
    const issued = await evap(['keys', 'new', '--for', id, '--keys-file', keysFile]);
    expect(issued.code, issued.stderr).toBe(0);
    expect(issued.stderr).toContain('send it to john.doe@example.com');
    expect(await status(issued.stdout.trim())).toBe(200);
    expect(JSON.parse((await evap(['keys', 'requests', '--keys-file', keysFile, '--format', 'json'])).stdout)[0].key).toBe('issued');
    const unknown = await evap(['keys', 'new', '--for', 'nope', '--keys-file', keysFile]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no request "nope"');
  });

  it('refuses a command line without a keys file or an action', async () => {
    const [noFile, noAction] = await Promise.all([evap(['keys', 'list'], { EVAP_KEYS_FILE: '' }), evap(['keys', '--keys-file', 'k'])]);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('--keys-file PATH (or EVAP_KEYS_FILE) is required');
    expect(noAction.code).toBe(2);
    expect(noAction.stderr).toContain('give new, list, revoke or requests');
  });

  it('shows requests sent by strangers as visible text: no terminal commands or reversed text, no spreadsheet formulas', async () => {
    const dir = await tempDir();
    const keysFile = join(dir, 'keys');
    await writeFile(keysFile, '');
    // lines as an older server wrote them, before it refused such characters
    const hostile = {
      id: 'abcdef012345',
      received: '2026-01-01T00:00:00Z',
      name: 'Eve\u009b31mRED\u202eevil',
      email: '=HYPERLINK("http://x","y")@example.com',
      justification: '+1\u2028@SUM(A1)',
    };
    await writeFile(`${keysFile}.requests`, `${JSON.stringify(hostile)}\n`);
    const table = await evap(['keys', 'requests', '--keys-file', keysFile, '--format', 'table']);
    const json = await evap(['keys', 'requests', '--keys-file', keysFile, '--format', 'json']);
    for (const shown of [table.stdout, json.stdout]) expect(shown).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2028\u2029]/);
    const visible = String.raw`Eve\u{009B}31mRED\u{202E}evil`;
    expect(table.stdout).toContain(visible);
    expect(JSON.parse(json.stdout)[0].name).toBe(visible);
    const csv = await evap(['keys', 'requests', '--keys-file', keysFile, '--format', 'csv']);
    const [, row] = csv.stdout.trim().split('\n');
    expect(row).toContain(`'=HYPERLINK`);
    expect(row).toMatch(/,"?'\+1/);
  });
});
