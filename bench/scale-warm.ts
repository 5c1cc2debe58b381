// `npx tsx bench/scale-warm.ts --store DIR [--store DIR ...] [--queries Q3,Q3L,Q7] [--budget-ms 3000]`: only the warm
// cells of the one table (bench/scale.ts's own measurement, ours and DuckDB's in the same run) for chosen queries on
// stores the bench made, for before/after comparisons in minutes instead of the whole bench's quarter hour. The stores
// are only read (opening one takes a reader lease in its `readers/` folder while it is open, as every reader does).
import { parseArgs } from 'node:util';
import { openStore } from '../lib/open/store.js';
import { measureQuery, tableQueries } from './scale.js';

const { values } = parseArgs({
  options: { store: { type: 'string', multiple: true }, queries: { type: 'string' }, 'budget-ms': { type: 'string' } },
});
const stores = values.store ?? [];
if (stores.length === 0) {
  process.stderr.write('usage: npx tsx bench/scale-warm.ts --store DIR [--store DIR ...] [--queries Q3,Q3L,Q7] [--budget-ms 3000]\n');
  process.exit(2);
}
const ids = (values.queries ?? 'Q3,Q3L,Q7').split(',');
const budgetMs = Number(values['budget-ms'] ?? 3000);
const log = (line: string) => process.stderr.write(`${line}\n`);

for (const dir of stores) {
  const opened = await openStore(dir);
  const { manifest } = opened;
  await opened.close();
  const queries = tableQueries(manifest).filter((q) => ids.includes(q.id));
  for (const query of queries) {
    const row = await measureQuery(dir, query, 0, false, budgetMs, () => {});
    const ratio = row.duckWarm / row.oursWarm;
    log(
      `${manifest.reservoirs.names.length} ${row.id}: warm ours ${row.oursWarm.toFixed(2)} ms, duckdb ${row.duckWarm.toFixed(1)} ms, ${ratio.toFixed(1)}x (${row.records} records${row.checked ? ', equal to DuckDB' : ''})`,
    );
  }
}
