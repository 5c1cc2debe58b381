// What one run of the CLI talks to: its output streams, environment and working folder. The bin (cli/evap.ts) gives
// the process's own; tests give their own and run many commands at once in one process.

/** A stream a run writes to; `isTTY` chooses the aligned table over CSV. */
export type Output = NodeJS.WritableStream & { isTTY?: boolean };

export interface CliIo {
  stdout: Output;
  stderr: Output;
  env: NodeJS.ProcessEnv; // EVAP_API_KEY, EVAP_KEYS_FILE, the AWS settings of a bucket, ...
  cwd: string; // relative paths on the command line are read from here
}

/** The process's own streams, environment and folder: what `evap` runs with. */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
