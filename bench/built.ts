// Which form of the library a measurement runs: the JavaScript `npm run build` wrote to dist/ (what `npm start`, the
// CLI and `import('evap')` run) when it is not older than any source of lib/ and server/; else the TypeScript itself
// through tsx, whose helpers (esbuild's wrapper naming each function as it is made) cost about a tenth of a cold
// answer (one reservoir of the 44,000 store: 62 ms through tsx, 56 ms built, medians of six fresh processes each).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './store.js';

let decided: 'dist' | 'tsx' | undefined;

/** 'dist' when the build is current, else 'tsx' (decided once a process). */
export function libraryForm(root = repoRoot): 'dist' | 'tsx' {
  if (root !== repoRoot) return formOf(root);
  decided ??= formOf(root);
  return decided;
}

/** How the report names what was measured. */
export function libraryFormText(): string {
  const form =
    libraryForm() === 'dist'
      ? 'the build in dist/ (`npm run build`: JavaScript from tsc), as `npm start`, the CLI and `import("evap")` run it'
      : 'the TypeScript of lib/ and server/ through tsx (dist/ is older than them: `npm run build` measures the build)';
  return `${form}, in the fresh processes of the cold cells and the HTTP server; the warm cells run in the bench's own process (tsx)`;
}

/** The URL to import a module of lib/ by (`open/store.js`) in the form measured. */
export function libraryModule(path: string): string {
  const file = libraryForm() === 'dist' ? join(repoRoot, 'dist', 'lib', path) : join(repoRoot, 'lib', path.replace(/\.js$/, '.ts'));
  return pathToFileURL(file).href;
}

/** The node arguments that start the server of the checkout at `root` in the form measured. */
export function serverCommand(root: string): string[] {
  return libraryForm(root) === 'dist' ? [join(root, 'dist', 'server', 'main.js')] : ['--import', 'tsx', join(root, 'server', 'main.ts')];
}

function formOf(root: string): 'dist' | 'tsx' {
  const newest = (folder: string, suffix: string): number => {
    let most = 0;
    for (const f of readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' }))
      if (f.endsWith(suffix)) most = Math.max(most, statSync(join(root, folder, f)).mtimeMs);
    return most;
  };
  try {
    const built = Math.min(statSync(join(root, 'dist', 'lib', 'index.js')).mtimeMs, statSync(join(root, 'dist', 'server', 'main.js')).mtimeMs);
    return Math.max(newest('lib', '.ts'), newest('server', '.ts')) <= built ? 'dist' : 'tsx';
  } catch {
    return 'tsx'; // no build
  }
}
