// Parquet answers encoded on worker threads: parquet-wasm's writer runs without a pause (about a second for every demo
// reservoir over three years), which on the main thread held every other request of a server that long. The table is
// handed over as Arrow IPC bytes (transferred, not copied) and the file comes back the same way.
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Table } from 'apache-arrow';
import { PARQUET_ROW_GROUP_ROWS } from './answer-table.js';
import { tableToArrowStreamInPieces } from './table-pieces.js';

// The worker's whole program, as tableToParquet writes (gzip pages, the schema's metadata as the file's key-value
// metadata). Plain CommonJS given as text, so that it runs the same from the TypeScript sources and from dist/.
const program = `
const { parentPort, workerData } = require('node:worker_threads');
const wasm = require(workerData.parquetWasm);
parentPort.on('message', ({ ipc, metadata }) => {
  try {
    const properties = new wasm.WriterPropertiesBuilder()
      .setCompression(wasm.Compression.GZIP)
      .setMaxRowGroupSize(workerData.rowGroupRows)
      .setCreatedBy('evap')
      .setKeyValueMetadata(new Map(metadata))
      .build();
    let bytes = wasm.writeParquet(wasm.Table.fromIPCStream(ipc), properties);
    if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== bytes.byteLength) bytes = bytes.slice();
    parentPort.postMessage({ bytes }, [bytes.buffer]);
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
});
`;

interface Job {
  ipc: Uint8Array;
  metadata: [string, string][];
  done: (bytes: Uint8Array) => void;
  failed: (error: Error) => void;
}

/** Threads encoding Parquet at once: one fewer than the cores (the main thread keeps one), at least one, at most four. */
const PARQUET_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));

/** A few worker threads, started when first needed, each encoding one file at a time; an idle one keeps no process alive. */
class ParquetThreads {
  private readonly idle: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly running = new Map<Worker, Job>();
  private started = 0;

  constructor(readonly size: number) {}

  encode(ipc: Uint8Array, metadata: [string, string][]): Promise<Uint8Array> {
    return new Promise((done, failed) => {
      this.queue.push({ ipc, metadata, done, failed });
      this.next();
    });
  }

  private next(): void {
    if (this.queue.length === 0) return;
    const worker = this.idle.pop() ?? (this.started < this.size ? this.start() : undefined);
    if (!worker) return; // every thread busy: the job waits its turn
    const job = this.queue.shift()!;
    this.running.set(worker, job);
    worker.ref(); // the process waits for an answer under way
    const buffer = job.ipc.byteOffset === 0 && job.ipc.buffer.byteLength === job.ipc.byteLength ? job.ipc : job.ipc.slice();
    worker.postMessage({ ipc: buffer, metadata: job.metadata }, [buffer.buffer as ArrayBuffer]);
  }

  private start(): Worker {
    this.started++;
    const parquetWasm = createRequire(import.meta.url).resolve('parquet-wasm');
    const worker = new Worker(program, { eval: true, workerData: { parquetWasm, rowGroupRows: PARQUET_ROW_GROUP_ROWS } });
    worker.on('message', (answer: { bytes?: Uint8Array; error?: string }) => {
      const job = this.running.get(worker);
      this.running.delete(worker);
      worker.unref();
      this.idle.push(worker);
      if (answer.bytes) job?.done(answer.bytes);
      else job?.failed(new Error(`the Parquet answer could not be written: ${answer.error}`));
      this.next();
    });
    // a thread that dies (out of memory, a wasm trap), busy or idle, fails its job only; the next job starts another
    const gone = (error: Error) => {
      const job = this.running.get(worker);
      if (!this.running.delete(worker) && !this.idle.includes(worker)) return; // already counted out
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      this.started--;
      job?.failed(error);
      this.next();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the Parquet thread stopped (exit code ${code})`)));
    return worker;
  }
}

let threads: ParquetThreads | undefined;

/**
 * A table as a Parquet file, as tableToParquet makes it, with the event loop free meanwhile: the IPC bytes are written
 * a record batch per turn, the file on a worker thread.
 */
export async function tableToParquetOffThread(table: Table): Promise<Uint8Array> {
  const ipc = await tableToArrowStreamInPieces(table);
  threads ??= new ParquetThreads(PARQUET_THREADS);
  return threads.encode(ipc, [...table.schema.metadata]);
}
