// evap query --as-of and --also-return qflag,status (issue 13): the CSV the API would send, from a past snapshot.
import { describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../lib/format/csv.js';
import { generateStore } from '../../lib/model/generate.js';
import { ingest, textSource } from '../../lib/ingest/ingest.js';
import { openStore } from '../../lib/store/store.js';
import { tempDir } from '../helpers.js';
import { evap } from './harness.js';

describe('evap query --as-of', () => {
  it('prints the records as they were before a revision, with their day flags', async () => {
    const dir = await tempDir();
    await generateStore(dir, { reservoirs: 2, stations: 1, start: '2021-01-01', end: '2021-02-28', seed: 4 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const store = await openStore(dir);
    const name = store.manifest.reservoirs.names[0]!;
    const query = { names: [name], datasets: ['lem'], variables: ['E_hs'], start: '2021-02-20', end: '2021-02-28', alsoReturn: ['qflag', 'status'] };
    const old = await store.reservoirTimeseries(query);
    await store.close();
    await ingest(dir, [textSource('revision.json', JSON.stringify(old.map((r) => ({ ...r, 'E_hs (mm)': 1.5, status: 'Final' }))))]);
    const args = ['query', '--store', dir, '--names', name, '--datasets', 'lem', '--variables', 'E_hs', '--start', '2021-02-20', '--end', '2021-02-28', '--also-return', 'qflag,status', '--format', 'csv'];
    const [then, now] = await Promise.all([evap([...args, '--as-of', before]), evap(args)]);
    expect(then.code, then.stderr).toBe(0);
    expect(then.stdout).toBe(recordsToCsv(old, Object.keys(old[0]!)));
    expect(now.stdout.split('\n')).toHaveLength(1 + 9 + 1);
    expect(old.some((r) => r.status !== 'Final')).toBe(true);
    expect(now.stdout.split('\n').slice(1, -1).every((line) => line.endsWith(',1.5,O,Final') || line.endsWith(',1.5,M,Final') || line.endsWith(',1.5,R,Final') || line.endsWith(',1.5,S,Final'))).toBe(true);
    const refused = await evap([...args, '--as-of', '2001-01-01']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/oldest snapshot is 1/);
  });
});
