// How a test runs one of the package's entry points in a child process: its build in dist/ when the build is newer
// than every source it is made from, else the source through tsx. A child through tsx spends about 1 s of CPU to
// listening where the build spends 0.5 s; a clean clone (npm ci builds dist/ after the checkout) always has the build,
// and an edit not yet built falls back to the source, so a child never runs older code than the test.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const builtFrom = ['lib', 'server', 'cli'];

let fresh: boolean | undefined;

/** Whether every source of lib/, server/ and cli/ has its build in dist/, written after the source's last change (checked once per test file). */
export function buildIsFresh(): boolean {
  return (fresh ??= builtFrom.every((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .every((file) => builtAfter(join(folder, file))),
  ));
}

/** The node arguments that run `source` (a .ts file of lib/, server/ or cli/, relative to the repository's root). */
export function entryArgs(source: string): string[] {
  const { nodeArgs, path } = entryModule(source);
  return [...nodeArgs, path];
}

/**
 * How a child process loads `source` (as entryArgs picks): the absolute path of the file to run or import (its build, or
 * the source itself), and the node arguments the process then needs (tsx's loader for the source, none for the build).
 */
export function entryModule(source: string): { path: string; nodeArgs: string[] } {
  return buildIsFresh() ? { path: join(root, builtOf(source)), nodeArgs: [] } : { path: join(root, source), nodeArgs: ['--import', 'tsx'] };
}

const builtOf = (source: string) => join('dist', source.replace(/\.ts$/, '.js'));

function builtAfter(source: string): boolean {
  try {
    return statSync(join(root, builtOf(source))).mtimeMs >= statSync(join(root, source)).mtimeMs;
  } catch {
    return false; // not built
  }
}
