// An answer with no records is not an error (the API answers `[]` too), but on the command line it says so on stderr,
// with the range the data hold, so that a range outside the data is never mistaken for a quiet success.
import type { WireRecord } from '../lib/types.js';
import type { Flags } from './args.js';
import { listFlag, stringFlag } from './args.js';
import type { Source } from './source.js';

/** Passes text chunks on and tells, once they are done, whether any record was in them (CSV rows after the header, JSON objects). */
export function watchText(chunks: AsyncIterable<string>, format: 'csv' | 'json'): { chunks: AsyncIterable<string>; empty(): boolean } {
  let head = '';
  let found = false;
  return {
    chunks: (async function* () {
      for await (const chunk of chunks) {
        if (!found) {
          head += chunk;
          found = format === 'csv' ? /\n[^\n]/.test(head) : head.includes('{');
          if (!found && head.length > 1 << 16) head = head.slice(-(1 << 16)); // a header only: bounded
        }
        yield chunk;
      }
    })(),
    empty: () => !found,
  };
}

/** The note said on stderr for an answer without records: what was asked, and the dates the data hold. */
export async function describeEmpty(source: Source, kind: 'reservoirs' | 'stations', values: Flags): Promise<string> {
  const date = stringFlag(values, 'date');
  const start = stringFlag(values, 'start') ?? '2020-01-01';
  const end = stringFlag(values, 'end') ?? '2020-01-31';
  const asked = date !== undefined ? `on ${date}` : `from ${start} to ${end}`;
  const held = await heldRange(source, kind, values).catch(() => undefined);
  const where = held ? `; the data hold ${held} (evap info dates)` : '';
  return `evap query: nothing matched ${asked}${where}; the answer is empty`;
}

async function heldRange(source: Source, kind: 'reservoirs' | 'stations', values: Flags): Promise<string | undefined> {
  if (kind === 'stations') {
    const [range] = (await source.listStationDates(listFlag(values, 'names'))) as WireRecord[];
    return range?.start_date ? `${range.start_date} to ${range.end_date} for those stations` : undefined;
  }
  const dataset = listFlag(values, 'datasets')?.[0];
  // a dataset's own first variable when none was named (the default variable is nete-volume-calcs' NetE)
  const variable = dataset === undefined ? undefined : (listFlag(values, 'variables')?.[0] ?? (await source.listVariables(dataset))[0]?.api_name);
  const [range] = (await source.listDates(dataset, variable)) as WireRecord[];
  return range?.start_date ? `${range.start_date} to ${range.end_date} (${dataset ?? 'nete-volume-calcs'})` : undefined;
}

/**
 * The notes said on stderr for asked station variables a station does not measure (their values come back empty):
 * one line per such station, naming what it does measure. None for every station (--names ALL) or a date's answer.
 */
export async function describeUnmeasured(source: Source, values: Flags): Promise<string[]> {
  const asked = listFlag(values, 'variables');
  const names = listFlag(values, 'names');
  if (asked === undefined || names === undefined || names.includes('ALL') || names.includes('ALL_STATIONS')) return [];
  const notes = await Promise.all(
    names.map(async (name) => {
      const held = ((await source.listStationVariables([name])) as WireRecord[]).map((v) => String(v.api_name));
      const lacking = asked.filter((v) => !held.includes(v));
      if (lacking.length === 0) return undefined;
      const them = lacking.length === 1 ? `${lacking[0]}: its values are` : `${lacking.join(', ')}: their values are`;
      return `evap query: ${name} does not measure ${them} empty; it measures ${held.join(', ')} (evap info station-variables --names ${JSON.stringify(name)})`;
    }),
  );
  return notes.filter((n) => n !== undefined);
}
