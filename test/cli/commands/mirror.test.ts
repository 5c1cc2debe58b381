// evap mirror against a loopback server: a copy that answers as the source, resumed after a kill; timeouts and missing flags.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { openSmallStore, smallStoreAnswers, tempDir } from '../../helpers.js';
import { startTestServer } from '../../server/harness.js';
import { evap, evapProcess } from '../harness.js';

const { dir: sourceDir, store: source, names } = await openSmallStore({ copy: true });
const answers = (dir: string) => smallStoreAnswers(dir, names);

describe('evap mirror', () => {
  it('copies a loopback server, resuming after being killed', async () => {
    const server = await startTestServer({ store: source });
    const dir = join(await tempDir(), 'mirror');
    const progress = join(dir, 'mirror-progress.json');
    const args = ['mirror', '--from', server.url, '--api-key', server.key, '--store', dir, '--concurrency', '2'];
    const killed = await evapProcess(args, {}, { when: async () => (await readFile(progress, 'utf8').catch(() => '')).includes('reservoirs/') });
    expect(killed.signal).toBe('SIGKILL');
    const resumed = await evap(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/units already done by an interrupted run/);
    expect(await answers(dir)).toEqual(await answers(sourceDir));
    const copy = await openStore(dir);
    expect(copy.reservoirMetadata(names)).toEqual(source.reservoirMetadata(names));
    // an update of the complete copy asks the server what changed since the snapshot recorded: nothing
    const update = await evap([...args, '--update']);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toMatch(
      new RegExp(
        `^update by GET /changes since snapshot ${source.manifest.sequence}; the server is at snapshot ${source.manifest.sequence}\nnothing published: 0 requests`,
      ),
    );
  });

  it('gives up on a server that stops answering after --timeout-ms and --retries more tries, naming it', async () => {
    let asked = 0;
    const silent = createServer(() => void asked++);
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const { port } = silent.address() as { port: number };
    try {
      const mirrorWith = async (retries: string) => {
        asked = 0;
        const store = join(await tempDir(), 'm');
        const run = await evap([
          'mirror',
          '--from',
          `http://127.0.0.1:${port}`,
          '--api-key',
          'k',
          '--store',
          store,
          '--timeout-ms',
          '300',
          '--retries',
          retries,
        ]);
        return { run, asked };
      };
      const once = await mirrorWith('0');
      const { run, asked: twice } = await mirrorWith('1');
      expect(once.asked).toBeGreaterThan(0);
      expect(twice).toBe(2 * once.asked); // each request the run makes before it stops, then one more try of each
      expect([once.run.code, run.code]).toEqual([1, 1]);
      expect(run.stderr).toContain(`evap mirror: mirror stopped: no answer within 300 ms from http://127.0.0.1:${port}/`);
      expect(run.stderr).not.toContain('usage');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('asks for what is missing', async () => {
    const run = await evap(['mirror', '--from', 'http://127.0.0.1:9', '--store', 'x'], { EVAP_API_KEY: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--api-key (or EVAP_API_KEY) is required');
  });
});
