// Opt-in (EVAP_TEST_CPU=<log file>): appends each test file's CPU seconds to the log, its own process's and its
// children's (waited-for children's, from /proc/self/stat), and its wall seconds: what to cut when the suite is slow.
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

/** This process's CPU seconds and its reaped children's, from /proc/self/stat (clock ticks of 1/100 s). */
function cpuSeconds(): [own: number, children: number] {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return [(Number(fields[11]) + Number(fields[12])) / 100, (Number(fields[13]) + Number(fields[14])) / 100];
}

const start = cpuSeconds();
const startedAt = performance.now();
// biome-ignore lint/correctness/noEmptyPattern: vitest reads a hook's first parameter as fixtures and refuses a plain name
afterAll(({}, file) => {
  const end = cpuSeconds();
  const path = 'filepath' in file ? String(file.filepath) : file.name;
  const row = [path, (end[0] - start[0]).toFixed(2), (end[1] - start[1]).toFixed(2), ((performance.now() - startedAt) / 1000).toFixed(2)];
  appendFileSync(process.env.EVAP_TEST_CPU ?? '', `${row.join('\t')}\n`);
});
