// A tiny `--name value` argument reader shared by the command-line entry points.
import { parseArgs } from 'node:util';

/** Parses `--key value` flags and positionals (node:util parseArgs), failing with a usage line. */
export function readArgs<T extends Record<string, { type: 'string' | 'boolean'; default?: string | boolean; multiple?: boolean }>>(
  argv: string[],
  options: T,
  usage: string,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nusage: ${usage}\n`);
    process.exit(2);
  }
}

/** An integer flag value, or exit with a message naming the flag. */
export function intFlag(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}\n`);
    process.exit(2);
  }
  return n;
}
