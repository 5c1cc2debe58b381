// Errors in the words the user typed: the library and the wire name parameters as the API does (start_date,
// RES_NAMES); on the command line they are flags (--start, --names), and a mistyped flag gets a "did you mean".
import { didYouMean } from '../lib/suggest.js';

/** Each wire parameter name and the flag that carries it on the command line. */
export const flagOfWireName: Readonly<Record<string, string>> = {
  RES_NAMES: '--names',
  STA_NAMES: '--names',
  start_date: '--start',
  end_date: '--end',
  also_return: '--also-return',
  as_of: '--as-of',
  modified_since: '--modified-since',
  output_format: '--format',
}; // datasets, variables, units, statistic: the same word as the flag, and a common word in sentences: left as they are

/** The commands whose flags carry wire parameters (ingest reads files whose columns are named start_date: not these). */
export const queryCommands: ReadonlySet<string> = new Set(['query', 'info', 'metadata', 'forecast']);

const wireName = new RegExp(`(?<![\\w-])(${Object.keys(flagOfWireName).join('|')})(?![\\w-])`, 'g');

/**
 * A library or server message with the parameter names replaced by the flags: "start_date is not a calendar date"
 * becomes "--start is not a calendar date". Only names that are a parameter's, never a value inside quotes.
 */
export function inFlagWords(message: string): string {
  return message
    .split(/("(?:[^"\\]|\\.)*")/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(wireName, (name) => flagOfWireName[name]!)))
    .join('');
}

/** node:util's "Unknown option '--name'" with the nearest known flag: ` (did you mean "--names"?)`. */
export function withFlagSuggestion(message: string, known: Iterable<string>): string {
  const unknown = /^Unknown option '(--?[^']+)'/.exec(message)?.[1];
  if (unknown === undefined) return message;
  const flags = [...known].map((k) => `--${k}`);
  // a flag that is a known one's prefix (--name, --variable) is meant as that one before any edit-distance guess
  const longer = flags.filter((f) => f.startsWith(unknown) && f.length - unknown.length <= 2);
  const hint = longer.length === 1 ? ` (did you mean ${JSON.stringify(longer[0])}?)` : didYouMean(unknown, flags);
  return `${message}${hint}`;
}
