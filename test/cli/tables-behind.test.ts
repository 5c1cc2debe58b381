// A command that commits says when the store's Iceberg tables were left behind (their publish failed after the
// commit), and is silent when they are level; tablesBehind tells the two apart from the store alone.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tablesBehind } from '../../lib/tables/publish.js';
import { tempDir, writeTinyStore } from '../helpers.js';
import { evap } from './harness.js';

describe('a command whose commit left the tables behind', () => {
  it('warns, naming both snapshots and the command that publishes them; says nothing when they are level', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const level = await evap(['about', '--store', dir, '--title', 'first']);
    expect(level.code, level.stderr).toBe(0);
    expect(level.stderr).not.toMatch(/warning/);
    expect(await tablesBehind(dir)).toBeUndefined();

    // a file where the tables' folder goes: the next commit stands, its publish fails
    await rm(join(dir, 'tables'), { recursive: true, force: true });
    await writeFile(join(dir, 'tables'), 'not a folder');
    const behind = await evap(['about', '--store', dir, '--title', 'second']);
    expect(behind.code, behind.stderr).toBe(0);
    expect(behind.stderr).toMatch(/published snapshot \S+ with title changed/);
    const gap = await tablesBehind(dir);
    expect(gap).toEqual({ store: expect.any(Number), tables: undefined });
    expect(behind.stderr).toContain(`warning: the store's Iceberg tables are not published for this location, the store at ${gap!.store}`);
    expect(behind.stderr).toContain(`evap tables --store ${dir}`);

    // the folder back and the tables published: level again, and the next commit is silent
    await rm(join(dir, 'tables'));
    await mkdir(join(dir, 'tables'));
    expect((await evap(['tables', '--store', dir])).code).toBe(0);
    expect(await tablesBehind(dir)).toBeUndefined();
    const again = await evap(['about', '--store', dir, '--title', 'third']);
    expect(again.stderr).not.toMatch(/warning/);
  });
});
