// Runs the CLI from source as a child process (node --import tsx cli/evap.ts ...), as a user runs `evap`.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { onTestFinished } from 'vitest';

export const root = resolve(import.meta.dirname, '../..');

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

/** Starts `evap serve ...args` on a free port; resolves with its base URL once it prints `listening on`. Killed when the test ends. */
export async function evapServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/evap.ts', 'serve', '--port', '0', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  let out = '';
  const url = await new Promise<string>((ok, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) ok(match[1]!);
    });
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => fail(new Error(`evap serve exited with ${code}: ${out}`)));
  });
  return { url, child, output: () => out };
}
