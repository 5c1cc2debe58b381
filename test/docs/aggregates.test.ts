// docs/aggregates.md's promises: its library example runs as written (against this source) with the output it shows.
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { entryModule } from '../support/node-entry.js';

const root = join(import.meta.dirname, '..', '..');

describe('docs/aggregates.md', () => {
  it('runs the three-line library example with the output it shows', async () => {
    const doc = await readFile(join(root, 'docs', 'aggregates.md'), 'utf8');
    const code = doc.split('```js\n')[1]!.split('```')[0]!;
    const shown = code
      .split('\n')
      .find((l) => l.startsWith('// ['))!
      .slice(3)
      .split(',...')[0]!;
    // the example is plain JavaScript: node runs it as written, on the package's build (or its source through tsx)
    const entry = entryModule('lib/index.ts');
    const script = join(root, `aggregates-example-${process.pid}.mjs`);
    await writeFile(script, code.replace("from 'evap'", `from '${pathToFileURL(entry.path).href}'`));
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [...entry.nodeArgs, script], { cwd: root });
      const records = JSON.parse(stdout) as unknown[];
      expect(records).toHaveLength(12);
      expect(stdout.startsWith(shown)).toBe(true);
    } finally {
      await rm(script, { force: true });
    }
  });
});
