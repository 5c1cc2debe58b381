// Runs the CLI from source as a child process (node --import tsx cli/evap.ts ...), as a user runs `evap`.
import { spawn } from 'node:child_process';
import { root, type SpawnedServer, spawnServer } from '../server/harness.js';

export { root };

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null; // SIGKILL when `kill` stopped it
  stdout: string;
  stderr: string;
}

/** When to SIGKILL a run: after some milliseconds, or as soon as a polled check holds. */
export interface Kill {
  afterMs?: number;
  when?: () => Promise<boolean>;
}

/** Runs `evap ...args` to its end (or until `kill` says). */
export function evap(args: string[], env: NodeJS.ProcessEnv = {}, kill: Kill = {}): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/evap.ts', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  if (kill.afterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), kill.afterMs);
  if (kill.when) {
    const poll = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (await kill.when!()) child.kill('SIGKILL');
      else setTimeout(poll, 1);
    };
    void poll();
  }
  return new Promise((done) => child.on('close', (code, signal) => done({ code, signal, stdout, stderr })));
}

/** Starts `evap serve ...args` on a free port; resolves once it prints `listening on`. Killed after the test file. */
export function evapServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<SpawnedServer> {
  return spawnServer(process.execPath, ['--import', 'tsx', 'cli/evap.ts', 'serve', '--port', '0', ...args], env);
}
