// Forecasts for a store being generated: every reservoir's ensemble on every issue day of a span, written an
// issue at a time (a file set per issue) into the writer's snapshot. One function, for the demo store and any other generated one.
import { formatDay, parseRange } from '../dates.js';
import type { ReservoirSpec } from '../model/reference.js';
import type { StoreWriter } from '../writer/write.js';
import { forecastReservoir, type IssueEnsemble } from './generate.js';
import { forecastFromMembers } from './issue.js';
import { writeForecastSources } from './write.js';

export interface ForecastGeneration {
  firstIssue: string; // first issue date, YYYY-MM-DD
  lastIssue: string; // last, inclusive
  members: number; // ensemble size (16-48 is usual)
  keepMembers?: number; // members are kept for the latest this many issues of the span (default: all); statistics always
  seed: number;
  origin: number; // epoch day the reservoirs' model states start at (the store generator's, so forecasts start from the estimates' own states)
  onProgress?: (month: string) => void;
}

/**
 * Adds forecasts (statistics and the members kept) of the given reservoirs to the writer's snapshot; returns the
 * issues written. One issue at a time, each reservoir's ensemble made as its rows are written (the reservoirs' model
 * states run on from issue to issue), so an issue of any number of reservoirs is written in bounded memory.
 */
export async function addForecasts(writer: StoreWriter, reservoirs: readonly ReservoirSpec[], options: ForecastGeneration): Promise<number> {
  const { startDay, endDay } = parseRange(options.firstIssue, options.lastIssue);
  const specs = [...reservoirs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)); // a file's rows are in name order
  const names = specs.map((s) => s.name);
  const runs = specs.map((spec) => forecastReservoir(spec, options.seed, options.origin, startDay, endDay, options.members));
  let entries = writer.current.forecasts ?? [];
  for (let day = startDay; day <= endDay; day++) {
    const keep = options.keepMembers === undefined || day > endDay - options.keepMembers;
    const forecasts = function* () {
      for (const run of runs) {
        const ensemble = run.next().value as IssueEnsemble;
        yield forecastFromMembers(ensemble.members, ensemble.count, keep);
      }
    };
    entries = await writeForecastSources(writer, entries, [
      { issued: day, names, memberCounts: names.map(() => (keep ? options.members : 0)), forecasts: forecasts() },
    ]);
    const month = formatDay(day).slice(0, 7);
    if (day === endDay || formatDay(day + 1).slice(0, 7) !== month) options.onProgress?.(month);
  }
  return endDay - startDay + 1;
}
