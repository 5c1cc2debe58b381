// GET /auth/request_key through the handler: appended to the requests file, bounded, the answer never echoing it.
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../../server/app.js';
import { fromFetchRequest } from '../../../server/incoming.js';
import { KeyRing } from '../../../server/keys/auth.js';
import { createKeyRequests, readKeyRequests } from '../../../server/keys/requests.js';
import { tempDir } from '../../helpers.js';
import { demoStore, root } from '../harness.js';

async function handlerWith(file: string | undefined, options = {}) {
  return createHandler({ store: await demoStore(), keys: KeyRing.fromKeys(['k']), keyRequests: createKeyRequests(file, options), logError: () => {} });
}
const ask = (fields: Record<string, string>) => fromFetchRequest(new Request(`http://x/auth/request_key?${new URLSearchParams(fields)}`));
const john = { name: 'John Doe', email: 'john.doe@example.com', justification: 'Research on reservoir evaporation for climate impact study' };

describe('GET /auth/request_key', () => {
  it('appends the request to the file and answers with its id only, without a key', async () => {
    const file = join(await tempDir(), 'requests');
    const handler = await handlerWith(file);
    const response = await handler(ask(john));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { message: string; request_id: string };
    expect(body.request_id).toMatch(/^[0-9a-f]{12}$/);
    expect(body.message).toMatch(/operator/);
    expect(JSON.stringify(body)).not.toMatch(/John|example\.com|Research/);
    expect(await readKeyRequests(file)).toEqual([{ id: body.request_id, received: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), ...john }]);
  });

  it('refuses missing, overlong and malformed fields with a 422 naming the field, its message without the value (input has it, as FastAPI writes)', async () => {
    const handler = await handlerWith(join(await tempDir(), 'requests'));
    const cases: [Record<string, string>, string][] = [
      [{ ...john, name: '' }, 'name'],
      [{ name: john.name, email: john.email }, 'justification'],
      [{ ...john, justification: 'x'.repeat(2001) }, 'justification'],
      [{ ...john, email: 'john at example' }, 'email'],
      [{ ...john, name: 'John\nDoe' }, 'name'],
      // what would end or reorder the operator's line: line and paragraph separators, C1 controls, bidi overrides
      ...['\u2028', '\u2029', '\u0085', '\u009b', '\u202e', '\u2066'].map((c): [Record<string, string>, string] => [{ ...john, name: `Eve${c}Doe` }, 'name']),
      [{ ...john, justification: 'ok\u2028# 2020-01-01 forged' }, 'justification'],
    ];
    for (const [fields, field] of cases) {
      const response = await handler(ask(fields));
      expect(response.status).toBe(422);
      const [entry] = ((await response.json()) as { detail: { loc: string[]; msg: string; input: unknown }[] }).detail;
      expect(entry!.loc).toEqual(['query', field]);
      expect(entry!.msg).not.toContain('john at example');
      expect(entry!.input).toBe(fields[field] ?? null);
    }
  });

  it('bounds the rate and the file size, and refuses when the server has no requests file', async () => {
    const file = join(await tempDir(), 'requests');
    const limited = await handlerWith(file, { perMinute: 2 });
    expect((await limited(ask(john))).status).toBe(200);
    expect((await limited(ask(john))).status).toBe(200);
    const third = await limited(ask(john));
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    const full = join(await tempDir(), 'full');
    await writeFile(full, 'x'.repeat(1000));
    expect((await (await handlerWith(full, { maxFileBytes: 1100 }))(ask(john))).status).toBe(503);
    expect(await readFile(full, 'utf8')).toBe('x'.repeat(1000));
    const none = await (await handlerWith(undefined))(ask(john));
    expect(none.status).toBe(503);
    expect(((await none.json()) as { detail: string }).detail).toMatch(/ask its operator/);
    expect((await limited(fromFetchRequest(new Request('http://x/auth/request_key', { method: 'POST' })))).status).toBe(405);
  });

  it('writes whole lines or nothing on a full disk, answering 503, and lists every request it accepted', async () => {
    // a 64 KiB tmpfs in a user and mount namespace of the child's own: a real ENOSPC, nothing mounted for anyone else
    const dir = await tempDir();
    const child = spawnSync(
      'unshare',
      [
        '--user',
        '--map-root-user',
        '--mount',
        'sh',
        '-c',
        `mount -t tmpfs -o size=64k tmpfs "$1" && exec "$2" --import tsx test/server/keys/requests-full-disk.child.ts "$1"`,
        'sh',
        dir,
        process.execPath,
      ],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    expect(child.status, child.stderr).toBe(0);
    const { results, late, listed, lines } = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as {
      results: { id?: string; status: number; detail?: string }[];
      late: string;
      listed: string[];
      lines: string[];
    };
    const accepted = results.filter((r) => r.status === 200).map((r) => r.id!);
    const refused = results.filter((r) => r.status !== 200);
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0); // the disk did fill
    for (const r of refused) expect(r).toMatchObject({ status: 503, detail: expect.stringMatching(/disk is full/) });
    expect(listed).toEqual([...accepted, late]); // nothing torn, nothing glued
    expect(lines.at(-1)).toBe('');
    for (const line of lines.slice(0, -1)) expect(() => JSON.parse(line)).not.toThrow();
  });
});
