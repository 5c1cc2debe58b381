// Rejected rows of ingest and mirror on stderr: the first 20 with file and line, then how many more.
import type { IngestProblem } from '../lib/ingest/ingest.js';
import type { Output } from './io.js';

/** Prints the problems, at most 20, and the count of the rest. */
export function printProblems(stderr: Output, problems: readonly IngestProblem[], count: number): void {
  const shown = problems.slice(0, 20);
  for (const p of shown) stderr.write(`${p.file}:${p.line}: ${p.reason}\n`);
  if (count > shown.length) stderr.write(`... and ${count - shown.length} more rejected\n`);
}
