// In-process timings: warm (median of many, caches filled) for the library and DuckDB, and the serialization floor.
import { createHash } from 'node:crypto';
import type { EvapStore } from '../lib/open/store.js';
import type { WireRecord } from '../lib/types.js';
import { assertSameAnswer } from './compare.js';
import type { DuckEngine } from './duckdb.js';
import { answerOurs, type BenchQuery, duckdbSql, serialize, textOurs } from './queries.js';
import { type Timing, timeRepeated } from './timing.js';

export interface WarmRow {
  id: string;
  title: string;
  records: number;
  bytes: number; // of the serialized answer (JSON or CSV text)
  digest: string; // SHA-256 of the serialized answer, to check the cold runs and HTTP answers against
  text: string; // the serialized answer
  ours: Timing; // records (JSON queries) or CSV text made from the columns (Q4)
  duckdb: Timing; // the same records as JS objects, or the same CSV text
  endToEnd: Timing; // the answer's text as the server makes it: JSON or CSV straight from the columns
  floor: Timing; // only JSON.stringify / recordsToCsv of the records already built
}

export interface RepeatOptions {
  minRuns: number;
  maxRuns: number;
  budgetMs: number;
}

/** Runs each query on both engines, checks the answers are equal, then times them warm. */
export async function runWarm(
  store: EvapStore,
  duck: DuckEngine,
  queries: readonly BenchQuery[],
  repeat: RepeatOptions,
  log: (line: string) => void,
): Promise<WarmRow[]> {
  const rows: WarmRow[] = [];
  for (const q of queries) {
    const sql = duckdbSql(store.root, q.spec, q.format);
    // ours: the records (JSON queries), or the CSV text as the library makes it (Q4), against DuckDB doing the same
    const ours = async (): Promise<WireRecord[] | string> => (q.format === 'csv' ? textOurs(store, q.spec, 'csv') : (await answerOurs(store, q.spec)).records);
    const built = await answerOurs(store, q.spec);
    const text = serialize(q.format, built);
    if ((await textOurs(store, q.spec, q.format)) !== text)
      throw new Error(`${q.id}: the text made from the columns differs from JSON.stringify / recordsToCsv of the records`);
    assertSameAnswer(q.id, await ours(), await duck.answer(sql, q.format));
    const row: WarmRow = {
      id: q.id,
      title: q.title,
      records: built.records.length,
      bytes: Buffer.byteLength(text),
      digest: digest(text),
      text,
      ours: await timeRepeated(ours, repeat),
      duckdb: await timeRepeated(() => duck.answer(sql, q.format), repeat),
      endToEnd: await timeRepeated(() => textOurs(store, q.spec, q.format), repeat),
      floor: await timeRepeated(() => serialize(q.format, built), repeat),
    };
    assertSameAnswer(q.id, await ours(), await duck.answer(sql, q.format)); // and still equal after the repeated runs
    log(
      `${q.id} ${row.records} records: ours ${ms(row.ours.medianMs)}, duckdb ${ms(row.duckdb.medianMs)} (x${(row.duckdb.medianMs / row.ours.medianMs).toFixed(1)}), end to end ${ms(row.endToEnd.medianMs)} vs floor ${ms(row.floor.medianMs)} (x${(row.endToEnd.medianMs / row.floor.medianMs).toFixed(2)})`,
    );
    rows.push(row);
  }
  return rows;
}

export function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export const ms = (value: number): string => (value >= 100 ? `${value.toFixed(0)} ms` : value >= 10 ? `${value.toFixed(1)} ms` : `${value.toFixed(2)} ms`);
