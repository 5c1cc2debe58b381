// Runs the CLI as a user runs `evap`: in this process through run(argv, io) (its own stdout, stderr, environment and
// folder; many at once), or as a child process (node --import tsx cli/evap.ts ...) where the process is the subject:
// the bin's exit, a kill midway, a server left running.
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import type { CliIo } from '../../cli/io.js';
import { run } from '../../cli/run.js';
import { root, type SpawnedServer, spawnServer } from '../server/harness.js';
import { entryArgs } from '../support/node-entry.js';

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

/** A stream that keeps what is written to it (a pipe, not a terminal, unless `isTTY`). */
export function textSink(isTTY = false): { stream: Writable & { isTTY?: boolean }; text: () => string } {
  let text = '';
  const stream = Object.assign(
    new Writable({
      decodeStrings: false,
      write(chunk: string | Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    }),
    isTTY ? { isTTY } : {},
  );
  return { stream, text: () => text };
}

/** An io for run(): the streams keep the output; the environment is this process's with `env` over it; the folder the repository. */
export function testIo(env: NodeJS.ProcessEnv = {}, isTTY = false): { io: CliIo; stdout: () => string; stderr: () => string } {
  const out = textSink(isTTY);
  const err = textSink();
  return { io: { stdout: out.stream, stderr: err.stream, env: { ...process.env, ...env }, cwd: root }, stdout: out.text, stderr: err.text };
}

/** Runs `evap ...args` in this process to its end. */
export async function evap(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const { io, stdout, stderr } = testIo(env);
  const code = await run(args, io);
  return { code, signal: null, stdout: stdout(), stderr: stderr() };
}

/** Runs `evap ...args` as a child process to its end (or until `kill` says). */
export function evapProcess(args: string[], env: NodeJS.ProcessEnv = {}, kill: Kill = {}): Promise<Run> {
  const child = spawn(process.execPath, [...entryArgs('cli/evap.ts'), ...args], {
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
  return spawnServer(process.execPath, [...entryArgs('cli/evap.ts'), 'serve', '--port', '0', ...args], env);
}
