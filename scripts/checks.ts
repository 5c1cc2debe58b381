// `npm test`'s checks before the tests, run at once rather than one after another (about 20 s of wall time saved on
// two cores): the type check of the Node code, the type check of the browser page, and the lint. Each one's output is
// printed whole when it ends, under its name; the exit status is 1 when any failed.
import { spawn } from 'node:child_process';

const checks: [name: string, command: string, args: string[]][] = [
  ['tsc --noEmit', 'tsc', ['--noEmit']],
  ['tsc --noEmit -p explorer', 'tsc', ['--noEmit', '-p', 'explorer']],
  ['biome check .', 'biome', ['check', '.']],
];

/** Runs one check (its bin from node_modules/.bin, which npm puts on PATH); resolves to whether it passed. */
function run(name: string, command: string, args: string[]): Promise<boolean> {
  const began = performance.now();
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const text = Buffer.concat(output).toString().trimEnd();
      const seconds = ((performance.now() - began) / 1000).toFixed(1);
      process.stdout.write(`${code === 0 ? 'ok' : 'FAILED'}: ${name} (${seconds} s)\n${text === '' ? '' : `${text}\n`}`);
      done(code === 0);
    });
  });
}

const passed = await Promise.all(checks.map(([name, command, args]) => run(name, command, args)));
process.exitCode = passed.every(Boolean) ? 0 : 1;
