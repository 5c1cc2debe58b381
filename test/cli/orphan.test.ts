// `npx evap serve` under a service manager: SIGTERM reaches npx (and the shell it runs evap under), which does not pass
// it on. Here a parent that likewise dies without passing it on: the server it started under npm stops by itself.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { entryArgs } from '../support/node-entry.js';
import { root } from './harness.js';

// a stand-in for npx: starts the server, prints its pid, and dies on SIGTERM without passing it on
const parentScript = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, [...${JSON.stringify(entryArgs('cli/evap.ts'))}, 'serve', '--port', '0', '--store', 'data'], { stdio: ['ignore', 'inherit', 'inherit'] });
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

// the parent and the server it starts; `output` holds both their lines so far
function startUnderParent() {
  const parent = spawn(process.execPath, ['-e', parentScript], {
    cwd: root,
    env: { ...process.env, npm_command: 'exec', EVAP_API_KEYS: 'k' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seen = { output: '' };
  parent.stdout.on('data', (d) => (seen.output += d));
  parent.stderr.on('data', (d) => (seen.output += d));
  const when = (pattern: RegExp) =>
    expect.poll(() => pattern.exec(seen.output), { timeout: 30_000, interval: 50, message: `waiting for ${pattern}: ${seen.output}` }).toBeTruthy();
  return { parent, seen, when };
}

describe('evap serve started by npm', () => {
  it('stops when the npm process that started it dies without passing SIGTERM on', { timeout: 60_000 }, async () => {
    const { parent, seen, when } = startUnderParent();
    await when(/server pid (\d+)[\s\S]*listening on/);
    const pid = Number(/server pid (\d+)/.exec(seen.output)![1]);
    started = pid;
    expect(alive(pid)).toBe(true);
    // at once: the server watches the parent it had at start (it read its parent only after starting once, and a
    // parent killed on "listening on" was sometimes gone by then: the new parent was watched, the server ran on)
    parent.kill('SIGTERM');
    await expect.poll(() => alive(pid), { timeout: 45_000, interval: 100, message: seen.output }).toBe(false); // it drains first: slow on a loaded machine
  });
});
