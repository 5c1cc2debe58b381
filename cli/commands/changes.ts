// evap changes: what changed in a store since a snapshot, table by table, from the snapshots' manifests alone.
import { openStore } from '../../lib/open/store.js';
import { readArgs, requiredFlag, stringFlag } from '../args.js';
import type { CliIo } from '../io.js';
import { storageIn } from '../paths.js';

export const usage = `evap changes --store DIR|s3://BUCKET/PREFIX --since ID|TIME [--as-of TIME] [--json]
  Prints, for each table, the names and days whose files changed since snapshot ID (a sequence number, as
  /info/list_snapshots and GET /changes give it) or since the snapshot current at TIME, up to the current snapshot
  (or the one current at --as-of): "<table>\\t<name>\\t<first day>\\t<last day>" a line ("*" for every name, "" for a
  table without days), then "current\\t<id>", the snapshot to ask from next time. --json prints {since, current, changes}.`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = readArgs(argv, {
    store: { type: 'string' },
    since: { type: 'string' },
    'as-of': { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const store = await openStore(storageIn(io, requiredFlag(values, 'store')));
  try {
    const answer = await store.changes({ since: requiredFlag(values, 'since'), asOf: stringFlag(values, 'as-of') });
    if (values.json === true) io.stdout.write(`${JSON.stringify(answer, null, 1)}\n`);
    else {
      const lines = answer.changes.map((c) => `${c.table}\t${c.name ?? '*'}\t${c.start_date ?? ''}\t${c.end_date ?? ''}\n`);
      io.stdout.write(`${lines.join('')}current\t${answer.current}\n`);
    }
    return 0;
  } finally {
    await store.close();
  }
}
