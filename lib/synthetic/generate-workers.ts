// A generator's workers: threads that each simulate and write some of the reservoirs' chunks of names (chunks.ts)
// into the store with a writer of their own that never commits, and hand their files over to the generator's writer,
// which names them in its one snapshot. The rows are those a single thread writes; the chunks are shared round-robin,
// so each thread gets about as many names.
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReservoirSpec } from '../model/reference.js';
import type { Manifest } from '../store/manifest.js';
import type { ChunkOptions } from './chunks.js';

/** What a worker is given (workerData). */
export interface WorkerTask {
  dir: string;
  base: Manifest; // the generator's snapshot so far: the reservoirs' names (the writer's layout depends on their count)
  reservoirs: readonly ReservoirSpec[];
  options: ChunkOptions & { rowGroupSize?: number };
  part: { index: number; of: number };
}

/** A worker's files, and the release that lets it end (its marker keeps a vacuum off its files until then). */
interface HandedPart {
  handed: { manifest: Manifest; marker: string };
  release: () => void;
}

/** Runs `parts` workers over the chunks; resolves when every one has handed its files over. */
export async function generateInWorkers(
  dir: string,
  task: Omit<WorkerTask, 'dir' | 'part'>,
  parts: number,
  progress: (what: string) => void,
): Promise<HandedPart[]> {
  // the worker's own file beside this one: JavaScript from dist/; from the sources, TypeScript through tsx (a
  // development dependency), registered in the thread first, as a test runner's workers do not inherit it
  const ext = extname(fileURLToPath(import.meta.url));
  const entry = new URL(`./generate-worker${ext}`, import.meta.url);
  const program =
    ext === '.ts'
      ? new URL(
          `data:text/javascript,const { tsImport } = await import(${JSON.stringify(tsxApi())}); await tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(entry.href)});`,
        )
      : entry;
  const workers: Worker[] = [];
  try {
    return await Promise.all(
      Array.from(
        { length: parts },
        (_, index) =>
          new Promise<HandedPart>((resolve, reject) => {
            const workerData: WorkerTask = { ...task, dir, part: { index, of: parts } };
            const worker = new Worker(program, { workerData });
            workers.push(worker);
            worker.on('message', (m: { progress?: string; handed?: HandedPart['handed'] }) => {
              if (m.progress !== undefined) progress(m.progress);
              if (m.handed) resolve({ handed: m.handed, release: () => worker.postMessage('release') });
            });
            worker.on('error', reject);
            worker.on('exit', (code) => reject(new Error(`a generator's worker stopped (exit code ${code}) before handing its files over`)));
          }),
      ),
    );
  } catch (error) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw error;
  }
}

// tsx's ESM API (its package's `import` condition: the file beside the `require` one)
function tsxApi(): string {
  return pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
}
