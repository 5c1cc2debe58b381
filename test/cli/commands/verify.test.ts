// evap verify: exit 0 for a whole store, 1 naming each damaged file.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { copySmallStore, tempDir } from '../../helpers.js';
import { evap } from '../harness.js';

let sourceDir: string;
let source: EvapStore;

beforeAll(async () => {
  sourceDir = await tempDir();
  await copySmallStore(sourceDir);
  source = await openStore(sourceDir);
});

describe('evap verify', () => {
  it('passes a whole store and names each damaged file of a damaged one', async () => {
    const dir = join(await tempDir(), 'verify');
    await cp(sourceDir, dir, { recursive: true });
    const whole = await evap(['verify', '--store', dir]);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout).toMatch(/every file is whole/);
    const victim = source.manifest.stations.partitions[source.manifest.stations.names[0]!]!.path;
    const bytes = await readFile(join(dir, victim));
    bytes[8]! ^= 0x01;
    await writeFile(join(dir, victim), bytes);
    const damaged = await evap(['verify', '--store', dir]);
    expect(damaged.code).toBe(1);
    expect(damaged.stdout).toContain(`store file ${victim} is corrupt`);
    expect(damaged.stdout).toMatch(/1 files damaged/);
  });
});
