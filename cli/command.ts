// What every `evap <command>` module exports, and how the CLI reports mistakes (usage) apart from failures (cause).
import type { CliIo } from './io.js';

/** A command module: its help text and its run. Registered by one line in cli/run.ts. */
export interface CommandModule {
  usage: string; // the whole `evap <command> --help` text, its first line the synopsis
  run(argv: string[], io: CliIo): Promise<number | undefined>; // the exit status (default 0); output, environment and folder are the io's
}

/** A mistake in the command line: reported with the command's synopsis, exit status 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** An error's message followed by its causes' (fetch's "fetch failed" hides ECONNREFUSED in its cause). */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const message = e instanceof Error ? e.message : String(e);
    const code = (e as { code?: unknown }).code;
    const text = typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
    if (!parts.some((p) => p.includes(text))) parts.push(text);
  }
  return parts.join(': ');
}
