// DuckDB over the same Parquet files: an in-memory instance whose answers are JS records or CSV text.

import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { WireRecord } from '../lib/types.js';
import { duckdbSetup } from './queries.js';

/** One DuckDB instance and connection, with the rounding macro defined. */
export class DuckEngine {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  static async open(): Promise<DuckEngine> {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    for (const sql of duckdbSetup) await connection.run(sql);
    return new DuckEngine(instance, connection);
  }

  /** The rows of a query as JSON-compatible records (doubles stay numbers). */
  async records(sql: string): Promise<WireRecord[]> {
    const reader = await this.connection.runAndReadAll(sql);
    return reader.getRowObjectsJson() as WireRecord[];
  }

  /** The rows of a query as CSV text with a header, written by DuckDB's own CSV writer. */
  async csv(sql: string): Promise<string> {
    const path = join(tmpdir(), `evap-bench-${process.pid}-${Math.random().toString(36).slice(2)}.csv`);
    try {
      await this.connection.run(`copy (${sql}) to '${path.replaceAll("'", "''")}' (format csv, header true)`);
      return await readFile(path, 'utf8');
    } finally {
      await rm(path, { force: true });
    }
  }

  /** Writes a query's rows to a file as one JSON array, with DuckDB's own writer; returns the row count. */
  async copyJson(sql: string, path: string): Promise<number> {
    return (await this.connection.run(`copy (${sql}) to '${path.replaceAll("'", "''")}' (format json, array true)`)).rowsChanged;
  }

  /** Writes a query's rows to a file as CSV with a header, with DuckDB's own writer; returns the row count. */
  async copyCsv(sql: string, path: string): Promise<number> {
    return (await this.connection.run(`copy (${sql}) to '${path.replaceAll("'", "''")}' (format csv, header true)`)).rowsChanged;
  }

  /** The answer in the query's format. */
  async answer(sql: string, format: 'json' | 'csv'): Promise<WireRecord[] | string> {
    return format === 'csv' ? this.csv(sql) : this.records(sql);
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
