// `npx tsx bench/peers.ts --store DIR [--store DIR ...] [--queries Q1,Q3] [--cold-runs 3] [--budget-ms 3000]`: the one
// table's query rows (bench/scale.ts's own measurement: cold in fresh processes and warm, ours beside DuckDB and
// ClickHouse in the same run, every answer checked) on stores already made, without the revision and HTTP parts of
// `npm run bench`; prints the Markdown table (one column per store) and the open time of each. The stores are only read.
import { parseArgs } from 'node:util';
import { openStore } from '../lib/open/store.js';
import { child, measureQuery, type ScaleRow, tableQueries } from './scale.js';
import { renderTable } from './scale-report.js';
import { median } from './timing.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string', multiple: true },
    queries: { type: 'string' },
    'cold-runs': { type: 'string' },
    'budget-ms': { type: 'string' },
  },
});
const stores = values.store ?? [];
if (stores.length === 0) {
  process.stderr.write('usage: npx tsx bench/peers.ts --store DIR [--store DIR ...] [--queries Q1,Q3] [--cold-runs 3] [--budget-ms 3000]\n');
  process.exit(2);
}
const coldRuns = Number(values['cold-runs'] ?? 3);
const budgetMs = Number(values['budget-ms'] ?? 3000);
const log = (line: string) => process.stderr.write(`${line}\n`);

const rows: ScaleRow[] = [];
for (const dir of stores) {
  const opened = await openStore(dir);
  const { manifest } = opened;
  await opened.close();
  const queries = tableQueries(manifest).filter((q) => values.queries === undefined || values.queries.split(',').includes(q.id));
  const opens = [];
  for (let i = 0; i < Math.max(1, coldRuns); i++) opens.push(await child<{ ms: number; rssBytes: number }>(['open', dir]));
  const measured = [];
  for (const query of queries) measured.push(await measureQuery(dir, query, coldRuns, false, budgetMs, log));
  const nete = manifest.datasets['nete-volume-calcs']!.partitions;
  rows.push({
    reservoirs: manifest.reservoirs.names.length,
    years: nete.at(-1)!.year - nete[0]!.year + 1,
    diskBytes: 0,
    files: 0,
    manifestBytes: 0,
    generatedMs: 0,
    openMs: median(opens.map((o) => o.ms)),
    openRssBytes: median(opens.map((o) => o.rssBytes)),
    queries: measured,
    revision: { records: 0, ms: 0, bytesWritten: 0, filesWritten: 0, storeBytes: 0 },
    http: [],
    serverPeakRssBytes: null,
  });
}
process.stdout.write(renderTable(rows, rows));
