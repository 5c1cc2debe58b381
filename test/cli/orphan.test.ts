// `npx evap serve` under a service manager: SIGTERM reaches npx (and the shell it runs evap under), which does not pass
// it on. Here a parent that likewise dies without passing it on: the server it started under npm stops by itself.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from './harness.js';

// a stand-in for npx: starts the server, prints its pid, and dies on SIGTERM without passing it on
const parentScript = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['--import', 'tsx', 'cli/evap.ts', 'serve', '--port', '0', '--store', 'data'], { stdio: ['ignore', 'inherit', 'inherit'] });
console.log('server pid ' + child.pid);
`;

// running: a process that exited but was not reaped yet (reparented, a zombie: 'Z' in /proc/PID/stat) has stopped
const alive = (pid: number) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .startsWith('Z');
  } catch {
    return false;
  }
};

let started: number | undefined;
afterAll(() => {
  if (started !== undefined && alive(started)) process.kill(started, 'SIGKILL'); // a failed run leaves no server behind
});

describe('evap serve started by npm', () => {
  it('stops when the npm process that started it dies without passing SIGTERM on', { timeout: 60_000 }, async () => {
    const parent = spawn(process.execPath, ['-e', parentScript], {
      cwd: root,
      env: { ...process.env, npm_command: 'exec', EVAP_API_KEYS: 'k' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    parent.stdout.on('data', (d) => (out += d));
    parent.stderr.on('data', (d) => (out += d));
    const pid = await new Promise<number>((ok, fail) => {
      parent.stdout.on('data', () => {
        const found = /server pid (\d+)[\s\S]*listening on/.exec(out);
        if (found) ok(Number(found[1]));
      });
      parent.on('exit', () => fail(new Error(`the parent ended before the server listened: ${out}`)));
    });
    started = pid;
    expect(alive(pid)).toBe(true);
    parent.kill('SIGTERM');
    await expect.poll(() => alive(pid), { timeout: 45_000, interval: 100 }).toBe(false); // it drains first: slow on a loaded machine
  });
});
