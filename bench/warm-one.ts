// `npx tsx bench/warm-one.ts --store DIR --query Q3 [--runs 60]`: one query of the one table (bench/scale.ts) answered
// again and again in a process of its own, nothing else in it (no DuckDB, no answers kept for comparison): the median
// and the least time of its whole text (JSON or CSV as the server makes it) after one first run. Run it from two
// checkouts alternately to compare a change to the text's making; `bench/scale-warm.ts` gives the table's own figure.
import { parseArgs } from 'node:util';
import { openStore } from '../lib/open/store.js';
import { streamOurs } from './queries.js';
import { tableQueries } from './scale.js';
import { timeRepeated } from './timing.js';

const { values } = parseArgs({ options: { store: { type: 'string' }, query: { type: 'string' }, runs: { type: 'string', default: '60' } } });
if (!values.store || !values.query) {
  process.stderr.write('usage: npx tsx bench/warm-one.ts --store DIR --query Q3 [--runs 60]\n');
  process.exit(2);
}
const store = await openStore(values.store);
try {
  const queries = tableQueries(store.manifest);
  const query = queries.find((q) => q.id === values.query);
  if (!query) throw new Error(`no query ${values.query}: the table's are ${queries.map((q) => q.id).join(', ')}`);
  const answer = async () => {
    let length = 0;
    for await (const chunk of streamOurs(store, query.spec)[query.format]()) length += chunk.length;
    return length;
  };
  const length = await answer(); // the first run fills what can be kept
  const runs = Number(values.runs);
  const { medianMs, minMs } = await timeRepeated(answer, { minRuns: runs, maxRuns: runs, budgetMs: 0 });
  console.log(`${query.id}: median ${medianMs.toFixed(2)} ms, least ${minMs.toFixed(2)} ms (${runs} runs, ${length} characters)`);
} finally {
  await store.close();
}
