// progressBar on a stderr that is not a terminal (a log file, CI): a line when work starts and one when it stops,
// nothing for a bar never started, and nothing that keeps the process alive.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { root } from './harness.js';

describe('progressBar', () => {
  it('writes the label, percentage, count and current item when started and when stopped', async () => {
    const script = join(await tempDir(), 'progress.mts');
    await writeFile(
      script,
      `const { progressBar } = await import(${JSON.stringify(join(root, 'cli/progress.ts'))});
const idle = progressBar('idle');
idle.stop();
const bar = progressBar('mirror');
bar.update(3, 10, 'LAKE MEAD');
bar.update(7, 12, 'LAKE POWELL'); // the total may grow as work is found
bar.stop();
process.stdout.write('finished\\n');\n`,
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: root, encoding: 'utf8', timeout: 20_000 });
    expect(run.status, run.stderr).toBe(0); // exits by itself: no timer left running
    expect(run.stdout).toBe('finished\n');
    const lines = run.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines.some((l) => l.includes('idle'))).toBe(false);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^mirror \[[^\]]+\] 0% 0\/10 LAKE MEAD eta /);
    expect(lines[1]).toMatch(new RegExp(`^mirror \\[[^\\]]+\\] ${Math.floor((7 / 12) * 100)}% 7/12 LAKE POWELL eta `));
  });
});
