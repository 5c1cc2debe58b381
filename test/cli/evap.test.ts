// cli/evap.ts: the version, the list of commands and each one's --help, an unknown command, and how every command
// reports a mistake (exit 2 with its synopsis) apart from a failure (exit 1 with the cause only); in this process
// through run(), and the bin itself: its exit status, and a reader that closes the pipe early.

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveSmallStore } from '../helpers.js';
import { entryArgs } from '../support/node-entry.js';
import { evap, evapProcess, root } from './harness.js';

const {
  dir,
  server: { url, key },
} = await serveSmallStore({ copy: true });

describe('evap --version and --help', () => {
  it('prints the version of package.json', async () => {
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    const run = await evap(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
  });

  it('lists every command, and each command explains itself with --help', async () => {
    const commands = ['demo', 'serve', 'query', 'info', 'metadata', 'generate', 'ingest', 'mirror', 'vacuum', 'verify', 'copy', 'keys'];
    const [help, bare] = await Promise.all([evap(['--help']), evap([])]);
    expect(help.code).toBe(0);
    expect(bare).toEqual(help); // no command: the same list
    for (const c of commands) expect(help.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    const runs = await Promise.all(commands.map((c) => evap([c, '--help'])));
    runs.forEach((run, i) => {
      expect(run.code, commands[i]).toBe(0);
      expect(run.stdout.startsWith(`evap ${commands[i]} `), run.stdout.slice(0, 80)).toBe(true);
    });
  });

  it('refuses an unknown command with the nearest one', async () => {
    const run = await evap(['qurey']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "qurey" (did you mean "query"?)');
  });
});

describe('every command', () => {
  it('answers a mistake with exit 2 and its synopsis, and a failure with exit 1 and the cause only', async () => {
    const mistakes: [string[], string][] = [
      [['ingest', '--store', dir], 'give at least one file to ingest'],
      [['ingest', 'missing.csv', '--store', dir], 'no such file: missing.csv'],
      [['verify'], '--store is required'],
      [['vacuum', '--store', dir, '--min-age-minutes', 'soon'], '--min-age-minutes must be a non-negative integer'],
      [['info', 'everything', '--store', dir], 'unknown topic "everything"'],
      [['query', '--store', dir, '--from', url, '--api-key', key], 'give --store or --from, not both'],
    ];
    const runs = await Promise.all(mistakes.map(([args]) => evap(args)));
    runs.forEach((run, i) => {
      const [args, message] = mistakes[i]!;
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(`evap ${args[0]}: ${message}`);
      expect(run.stderr).toContain(`usage: evap ${args[0]} `);
    });
    const missing = join(dir, 'no-store');
    const failure = await evap(['info', '--store', missing]);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toMatch(new RegExp(`^evap info: no store at ${missing}.*\\n$`)); // the cause only, no usage
  });
});

describe('the evap bin', () => {
  it('exits with the status run() gives: 0 done, 2 a mistake, 1 a failure', async () => {
    const [done, mistake, failure] = await Promise.all([
      evapProcess(['--version']),
      evapProcess(['qurey']),
      evapProcess(['info', '--store', join(dir, 'no-store')]),
    ]);
    expect([done.code, mistake.code, failure.code]).toEqual([0, 2, 1]);
    expect(done.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(failure.stderr).toMatch(/^evap info: no store at /);
  });

  it('stops quietly with status 0 when the reader closes the pipe early (evap query | head)', async () => {
    const child = spawn(
      process.execPath,
      [...entryArgs('cli/evap.ts'), 'query', '--store', 'data', '--names', 'ALL', '--start', '2019-01-01', '--end', '2021-12-31'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy()); // the first lines read, then the pipe closed
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
