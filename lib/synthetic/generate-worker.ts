// One generator's worker thread (generate-workers.ts): writes its chunks of the reservoirs with a writer of its own,
// hands the files over, and stays (its marker keeping a vacuum off them) until the generator has committed.
import { parentPort, workerData } from 'node:worker_threads';
import { createStoreWriter } from '../writer/write.js';
import { writeChunks } from './chunks.js';
import type { WorkerTask } from './generate-workers.js';

const task = workerData as WorkerTask;
const port = parentPort!;
const writer = createStoreWriter(task.dir, {
  base: task.base,
  overwrite: true,
  byDateDays: 0,
  rowGroupSize: task.options.rowGroupSize,
  rowsPerFile: task.options.rowsPerFile,
});
await writeChunks(writer, task.reservoirs, task.options, task.part, (what) => port.postMessage({ progress: what }));
port.once('message', () => port.close()); // released: the thread ends, and its marker with it
port.postMessage({ handed: writer.handOver() });
