// A commit stands even when publishing its Iceberg tables fails (the next publish catches up), so a command that
// committed says when the tables were left behind: meanwhile DuckDB, ClickHouse or Spark reading them see older data.
import type { Storage } from '../lib/store/storage.js';
import { tablesBehind } from '../lib/tables/publish.js';
import type { CliIo } from './io.js';

/** Writes a warning to stderr when the store's tables are behind the snapshot it serves. */
export async function warnIfTablesBehind(io: CliIo, store: string | Storage, flag: string): Promise<void> {
  const behind = await tablesBehind(store).catch(() => undefined); // the command's own result stands: this is advice
  if (!behind) return;
  const at = behind.tables === undefined ? 'not published for this location' : `at snapshot ${behind.tables}`;
  io.stderr.write(
    `warning: the store's Iceberg tables are ${at}, the store at ${behind.store}: engines reading the tables see older data until \`evap tables --store ${flag}\` publishes them\n`,
  );
}
