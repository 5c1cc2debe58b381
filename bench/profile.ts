// Where a fresh process spends its cold answer: bench/scale-child.ts run once more with EVAP_BENCH_PROFILE set, which
// records a CPU profile of the timed part only (opening and answering, not node's start-up or the imports), summed here
// by function and by file. What the one table prints beside a cold answer that is behind DuckDB's.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './store.js';

/** The parts of a V8 CPU profile (inspector's Profiler.stop) used here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  startTime: number; // µs
  endTime: number;
}

/** Runs scale-child.ts with `args` under the profiler; the summary lines of its timed part. */
export async function profileChild(args: string[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'evap-bench-profile-'));
  const file = join(dir, 'answer.cpuprofile');
  try {
    await new Promise<void>((done, fail) => {
      const proc = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', 'scale-child.ts'), ...args], {
        cwd: repoRoot,
        env: { ...process.env, EVAP_BENCH_PROFILE: file },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      proc.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2000)));
      proc.on('exit', (code) => (code === 0 ? done() : fail(new Error(`profiling ${args[0]} exited with ${code}: ${err}`))));
    });
    return summarizeProfile(JSON.parse(await readFile(file, 'utf8')) as CpuProfile);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The profile's length, its five heaviest functions (self time) and its four heaviest files, as shares of the samples. */
export function summarizeProfile(profile: CpuProfile, top = 5): string[] {
  const total = profile.nodes.reduce((n, node) => n + (node.hitCount ?? 0), 0);
  if (total === 0) return ['no samples'];
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const { callFrame, hitCount = 0 } of profile.nodes) {
    if (hitCount === 0) continue;
    const file = callFrame.url ? shortUrl(callFrame.url) : callFrame.functionName; // (program), (garbage collector), ...
    // (a file run through tsx has no line numbers of its own: every function of it is on line 0)
    const line = callFrame.lineNumber > 0 ? `:${callFrame.lineNumber + 1}` : '';
    const name = callFrame.url ? `${callFrame.functionName || '(anonymous)'} ${file}${line}` : callFrame.functionName;
    byFunction.set(name, (byFunction.get(name) ?? 0) + hitCount);
    byFile.set(file, (byFile.get(file) ?? 0) + hitCount);
  }
  const share = (entries: Map<string, number>, count: number) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, hits]) => `${name} ${((100 * hits) / total).toFixed(0)}%`);
  const ms = (profile.endTime - profile.startTime) / 1000;
  return [
    `profile of one more run (${ms.toFixed(0)} ms, ${total} samples)`,
    `by function: ${share(byFunction, top).join('; ')}`,
    `by file: ${share(byFile, 4).join('; ')}`,
  ];
}

// a file of the repository by its path in it (the whole root's prefix: its folder's name alone also ends other
// folders' names, as `p` ends `tmp`), a package by its name, node's own modules as they are
function shortUrl(url: string): string {
  const packaged = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packaged) return packaged[1]!;
  const prefix = [`${pathToFileURL(repoRoot).href}/`, `file://${repoRoot}/`].find((p) => url.startsWith(p));
  return prefix ? url.slice(prefix.length) : url.replace(/^file:\/\//, '');
}
