// Flag reading shared by the commands: node:util parseArgs, with mistakes thrown as UsageError.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { parseWholeNumber } from '../lib/integer.js';
import { type OperationName, parametersOf, type QueryOf } from '../lib/operations.js';
import { UsageError } from './command.js';
import { withFlagSuggestion } from './wording.js';

export type Flags = Record<string, string | boolean | undefined>;
export type FlagSpec = NonNullable<ParseArgsConfig['options']>;

/** Parses `--key value` flags and positionals; an unknown flag or a missing value is a UsageError. */
export function readArgs(argv: string[], options: FlagSpec): { values: Flags; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { values: values as Flags, positionals };
  } catch (error) {
    throw new UsageError(withFlagSuggestion((error as Error).message.replace(/\. To specify a positional argument.*$/s, ''), Object.keys(options)));
  }
}

/** A string flag's value, or undefined. */
export function stringFlag(values: Flags, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A string flag that must be given. */
export function requiredFlag(values: Flags, name: string): string {
  const value = stringFlag(values, name);
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** A comma-separated flag as a list (spaces around commas trimmed), or undefined. */
export function listFlag(values: Flags, name: string): string[] | undefined {
  const value = stringFlag(values, name);
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
}

/** An integer flag value written in plain decimal digits, or the fallback; anything else (0x10, 1e3, 5.0, -1) is a UsageError naming the flag. */
export function intFlag(value: string | boolean | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'string' ? parseWholeNumber(value) : undefined;
  if (n === undefined) throw new UsageError(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return n;
}

/** One of the allowed words, or the fallback. */
export function choiceFlag<T extends string>(values: Flags, name: string, allowed: readonly T[], fallback: T): T {
  const value = stringFlag(values, name) ?? fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
  return value as T;
}

/** The flag of a library option: its name in kebab-case (`alsoReturn` -> `also-return`). */
const flagOf = (option: string): string => option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

// the operations' query options a command takes as flags: the library's and as_of, not the answer format or the path's
const flagParameters = (operation: OperationName) => parametersOf(operation).filter((p) => p.in !== 'path' && p.name !== 'output_format');

/** A string flag for every query option of the operations (the operations table's). */
export function optionFlags(operations: readonly OperationName[]): FlagSpec {
  return Object.fromEntries(operations.flatMap((o) => flagParameters(o).map((p) => [flagOf(p.option), { type: 'string' as const }])));
}

/** The options of `operation` from its flags: a list split at commas, one value as it is; a given flag it does not take is a UsageError. */
export function optionsFromFlags<O extends OperationName>(operation: O, values: Flags, flags: readonly string[], what: string): QueryOf<O> {
  const taken = flagParameters(operation);
  for (const flag of flags)
    if (values[flag] !== undefined && !taken.some((p) => flagOf(p.option) === flag)) throw new UsageError(`--${flag} is not an option of ${what}`);
  const options: Record<string, string | string[]> = {};
  for (const p of taken) {
    const value = p.kind === 'list' ? listFlag(values, flagOf(p.option)) : stringFlag(values, flagOf(p.option));
    if (value !== undefined) options[p.option] = value;
  }
  return options as QueryOf<O>; // the keys are the operation's options but the path's, as QueryOf says
}
