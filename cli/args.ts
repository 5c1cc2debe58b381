// A tiny `--name value` argument reader shared by the command-line entry points.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export type Flags = Record<string, string | boolean | undefined>;

/** Parses `--key value` flags and positionals (node:util parseArgs), exiting with the usage line on a mistake. */
export function readArgs(argv: string[], options: NonNullable<ParseArgsConfig['options']>, usage: string): { values: Flags; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { values: values as Flags, positionals };
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nusage: ${usage}\n`);
    process.exit(2);
  }
}

/** A string flag's value, or undefined. */
export function stringFlag(values: Flags, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** An integer flag value, or exit with a message naming the flag. */
export function intFlag(value: string | boolean | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isInteger(n) || n < 0) {
    process.stderr.write(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}\n`);
    process.exit(2);
  }
  return n;
}
