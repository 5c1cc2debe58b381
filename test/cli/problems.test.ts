// printProblems, in a child process so its stderr is read as a user sees it: the first 20 rejected rows, then the count of the rest.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { root } from './harness.js';

describe('printProblems', () => {
  it('prints file:line: reason for at most 20 problems, then how many more were rejected', async () => {
    const cases = [
      { problems: 25, count: 30 }, // more problems kept than shown, and more rejected than kept
      { problems: 3, count: 3 },
      { problems: 20, count: 20 },
      { problems: 0, count: 0 },
      { problems: 2, count: 7 },
    ];
    const script = join(await tempDir(), 'problems.mts');
    await writeFile(
      script,
      `const { printProblems } = await import(${JSON.stringify(join(root, 'cli/problems.ts'))});
for (const { problems, count } of ${JSON.stringify(cases)}) {
  printProblems(Array.from({ length: problems }, (_, i) => ({ file: 'data/rows 1.csv', line: i + 2, reason: 'non-numeric value "x" in column "NetE (mm)"' })), count);
  process.stderr.write('--\\n');
}\n`,
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const expected = cases.map(({ problems, count }) => {
      const lines = Array.from({ length: Math.min(problems, 20) }, (_, i) => `data/rows 1.csv:${i + 2}: non-numeric value "x" in column "NetE (mm)"\n`);
      if (count > Math.min(problems, 20)) lines.push(`... and ${count - Math.min(problems, 20)} more rejected\n`);
      return `${lines.join('')}--\n`;
    });
    expect(run.stderr).toBe(expected.join(''));
    expect(run.stdout).toBe('');
  });
});
