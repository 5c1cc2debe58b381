// The soak in seconds, as a process (its exit status is its verdict): two workers under the load (the hostile clients
// have their own test, test/contract/hostile.test.ts),
// heavy askers, slow readers and slow uploaders, and the access log's pipe closed mid-run. Every request of the
// counting clients must end answered, refused with Retry-After, or 408; the server must serve on after its log died.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../bench/store.js';

describe('npm run soak', () => {
  it('answers every request of the slow clients and serves on when its log pipe closes, with two workers', async () => {
    const args = ['--duration', '6', '--warmup', '1', '--connections', '4', '--workers', '2', '--close-log-at', '2', '--no-hostile'];
    // bodies 16 bytes every 500 ms against a grace of 1 s: each upload is cut off with a 408 within the run
    args.push('--trickle-ms', '500', '--body-grace-ms', '1000', '--no-rss-bound');
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench/soak.ts'), ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(output, output).toContain('soak passed');
    expect(code).toBe(0);
    for (const kind of ['heavy', 'slowReader', 'slowUploader']) expect(output).toMatch(new RegExp(`^ +${kind} +.*\\b0 cut, 0 unanswered$`, 'm'));
    expect(output).toMatch(/^ +slowUploader .*\b\d+ × 408/m); // the trickle met the body rate
    expect(output).toMatch(/log pipe +closed at 2 s; server alive, said so on stderr/);
  }, 120_000);
});
