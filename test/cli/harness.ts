// Runs the CLI from source as a child process (node --import tsx cli/evap.ts ...), as a user runs `evap`.
import { spawn } from 'node:child_process';
import { root, spawnServer, type SpawnedServer } from '../server/harness.js';

export { root };

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `evap ...args` to its end. */
export function evap(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/evap.ts', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

/** Starts `evap serve ...args` on a free port; resolves once it prints `listening on`. Killed after the test file. */
export function evapServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<SpawnedServer> {
  return spawnServer(process.execPath, ['--import', 'tsx', 'cli/evap.ts', 'serve', '--port', '0', ...args], env);
}
