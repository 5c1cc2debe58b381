// The README's promises: its unit table is the catalogue's, and its library example runs as written.
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { reservoirVariables, stationVariables, units } from '../../lib/catalogue.js';

const root = join(import.meta.dirname, '..', '..');
const readme = await readFile(join(root, 'README.md'), 'utf8');

describe('README.md', () => {
  it('shows the unit table of the catalogue', () => {
    const table = readme.split('<!-- units:start -->')[1]!.split('<!-- units:end -->')[0]!;
    const rows = table.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| variable')).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
    const expected = [
      ...reservoirVariables.map((v) => [v.name, v.dataset, v.spec.description, units[v.spec.unit].metric, units[v.spec.unit].english]),
      ...Object.entries(stationVariables).map(([n, s]) => [n, 'stations', s.description, units[s.unit].metric, units[s.unit].english]),
    ];
    expect(rows).toEqual(expected);
  });

  it('runs the library example as written, with the output it shows', async () => {
    const code = readme.split('```js\n')[1]!.split('```')[0]!;
    const shown = code.split('\n').find((l) => l.startsWith('// 366'))!;
    const script = join(root, `readme-example-${process.pid}.mjs`); // inside the package, so `import 'evap'` resolves to it
    await writeFile(script, code);
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: root });
      expect(`// ${stdout.trim()}`).toBe(shown);
    } finally {
      await rm(script, { force: true });
    }
  });
});
