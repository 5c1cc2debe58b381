// `npm run bench [-- --smoke] [--store DIR] [--results FILE] [--no-http] [--no-scale] [--duration S] [--cold-runs N]`
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MismatchError } from './compare.js';
import { runBench } from './main.js';
import { curveScales, defaultStoreDir, repoRoot } from './store.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    smoke: { type: 'boolean', default: false },
    store: { type: 'string' },
    results: { type: 'string' },
    'no-http': { type: 'boolean', default: false },
    duration: { type: 'string', default: '10' },
    'cold-runs': { type: 'string' },
    'no-scale': { type: 'boolean', default: false },
  },
  strict: true,
});
const smoke = values.smoke!;
try {
  await runBench({
    smoke,
    store: values.store ?? defaultStoreDir(smoke),
    results: values.results ?? (smoke ? null : join(repoRoot, 'bench', 'RESULTS.md')),
    http: !values['no-http'] && !smoke,
    httpDurationS: Number(values.duration),
    connections: 16,
    coldRuns: Number(values['cold-runs'] ?? (smoke ? 1 : 5)),
    scales: smoke || values['no-scale'] ? [] : curveScales,
    command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
    log: (line) => process.stderr.write(`${line}\n`),
  });
} catch (error) {
  process.stderr.write(
    `bench failed: ${error instanceof MismatchError ? 'the library and DuckDB disagree: ' : ''}${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
