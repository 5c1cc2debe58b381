// `npm run bench [-- --smoke] [--scales 247,5000,44000] [--store DIR] [--results FILE] [--no-http] [--duration S]
// [--cold-runs N] [--no-profile]`: the one table of every query at every scale (see docs/benchmarks.md).
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MismatchError } from './compare.js';
import { runBench } from './main.js';
import { curveScales, defaultStoreDir, repoRoot, smokeScale } from './store.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    smoke: { type: 'boolean', default: false },
    scales: { type: 'string' },
    store: { type: 'string' },
    results: { type: 'string' },
    'no-http': { type: 'boolean', default: false },
    duration: { type: 'string', default: '10' },
    'cold-runs': { type: 'string' },
    'no-profile': { type: 'boolean', default: false },
  },
  strict: true,
});
const smoke = values.smoke!;
const sizes = values.scales?.split(',').map((n) => Number(n.replaceAll('_', '')));
const unknown = sizes?.filter((n) => !curveScales.some((s) => s.reservoirs === n)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(`--scales: no scale of ${unknown.join(', ')} water bodies; the scales are ${curveScales.map((s) => s.reservoirs).join(', ')}\n`);
  process.exit(2);
}
const scales = smoke ? [smokeScale] : curveScales.filter((s) => sizes === undefined || sizes.includes(s.reservoirs));
try {
  await runBench({
    smoke,
    store: values.store ?? defaultStoreDir(smoke),
    results: values.results ?? (smoke ? null : join(repoRoot, 'bench', 'RESULTS.md')),
    http: !values['no-http'] && !smoke,
    httpDurationS: Number(values.duration),
    connections: 16,
    coldRuns: Number(values['cold-runs'] ?? (smoke ? 1 : 5)),
    scales,
    columns: smoke ? scales : curveScales,
    profile: !smoke && !values['no-profile'],
    command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
    log: (line) => process.stderr.write(`${line}\n`),
  });
} catch (error) {
  process.stderr.write(
    `bench failed: ${error instanceof MismatchError ? 'the library and DuckDB disagree: ' : ''}${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
