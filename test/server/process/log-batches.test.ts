// Access lines written in batches (server/process/log.ts): in order, each whole, and none lost when the process exits
// at once after writing them, as a server stopped by process.exit does.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { root } from '../harness.js';

describe('batched access lines', () => {
  it('writes every line, in order, even when the process exits in the same turn', () => {
    const script = [
      "import { consoleLogger } from './server/process/log.ts';",
      "for (let i = 0; i < 5000; i++) consoleLogger.info('GET /line/' + i + ' 200');", // past one batch's bound: some written early
      "consoleLogger.info('last');",
      'process.exit(0);',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${Array.from({ length: 5000 }, (_, i) => `GET /line/${i} 200\n`).join('')}last\n`);
  });
});
