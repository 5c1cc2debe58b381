// `npm test`'s checks before the tests, run at once rather than one after another (about 20 s of wall time saved on
// two cores): the commands of `npm run typecheck` (the Node code, the browser page) and of `npm run lint`. Each one's
// output is printed whole when it ends, under its name; the exit status is 1 when any failed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The commands of the typecheck and lint scripts, one by one (`a && b` is two). */
export function checkCommands(scripts: Record<string, string>): string[] {
  return [scripts.typecheck, scripts.lint].flatMap((script) => (script ?? '').split('&&').map((command) => command.trim()));
}

/** Runs one command (its bin from node_modules/.bin, which npm puts on PATH); resolves to whether it passed. */
function run(command: string): Promise<boolean> {
  const began = performance.now();
  const [bin, ...args] = command.split(/\s+/);
  return new Promise((done) => {
    const child = spawn(bin!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const text = Buffer.concat(output).toString().trimEnd();
      const seconds = ((performance.now() - began) / 1000).toFixed(1);
      process.stdout.write(`${code === 0 ? 'ok' : 'FAILED'}: ${command} (${seconds} s)\n${text === '' ? '' : `${text}\n`}`);
      done(code === 0);
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { scripts } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const passed = await Promise.all(checkCommands(scripts).map(run));
  process.exitCode = passed.every(Boolean) ? 0 : 1;
}
