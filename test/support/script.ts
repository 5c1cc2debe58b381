// How a test runs a TypeScript script of its own in a child process (a store writer to kill, say): with the build
// fresh, the script with its types dropped (TypeScript's transpileModule) into a temporary .mjs whose imports of lib/,
// server/ and cli/ name their builds, run by plain node; else the script itself through tsx, whose loader costs about
// 1 s of CPU a child. Either way the child runs the code the test sees (node-entry.ts says when the build is).
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from '../helpers.js';
import { buildIsFresh, entryModule } from './node-entry.js';

const root = join(import.meta.dirname, '..', '..');

/**
 * The node arguments that run `script` (a .ts file relative to the repository's root, importing only node: modules and
 * sources of lib/, server/ and cli/). The transpiled copy lives in a temporary folder removed after the test.
 */
export async function scriptArgs(script: string): Promise<string[]> {
  if (!buildIsFresh()) return ['--import', 'tsx', join(root, script)];
  const { default: ts } = await import('typescript');
  const source = await readFile(join(root, script), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    fileName: script,
  });
  const built = outputText.replace(/(\bfrom\s*|\bimport\s*\(?\s*)'([^']+)'/g, (_, keyword: string, specifier: string) => {
    if (specifier.startsWith('node:')) return `${keyword}'${specifier}'`;
    const source = relative(root, join(root, dirname(script), specifier)).replace(/\.js$/, '.ts');
    if (!specifier.startsWith('.') || !/^(lib|server|cli)\//.test(source))
      throw new Error(`${script} imports ${specifier}: a script run this way may import only node: modules and lib/, server/ and cli/`);
    return `${keyword}'${pathToFileURL(entryModule(source).path).href}'`;
  });
  const file = join(await tempDir('evap-script-'), basename(script).replace(/\.ts$/, '.mjs'));
  await writeFile(file, built);
  return [file];
}
