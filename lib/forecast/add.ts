// Forecasts for a store being generated: every reservoir's ensemble on every issue day of a span, written an
// issue-month at a time (a file set per issue) into the writer's snapshot. One function, for the demo store and any other generated one.
import { formatDay, parseRange } from '../dates.js';
import type { ReservoirSpec } from '../model/reference.js';
import type { StoreWriter } from '../writer/write.js';
import { forecastReservoir, type IssueEnsemble } from './generate.js';
import { forecastFromMembers, type Issue } from './issue.js';
import { writeForecastIssues } from './write.js';

export interface ForecastGeneration {
  firstIssue: string; // first issue date, YYYY-MM-DD
  lastIssue: string; // last, inclusive
  members: number; // ensemble size (16-48 is usual)
  keepMembers?: number; // members are kept for the latest this many issues of the span (default: all); statistics always
  seed: number;
  origin: number; // epoch day the reservoirs' model states start at (the store generator's, so forecasts start from the estimates' own states)
  onProgress?: (month: string) => void;
}

/** Adds forecasts (statistics and every member) of the given reservoirs to the writer's snapshot; returns the issues written. */
export async function addForecasts(writer: StoreWriter, reservoirs: readonly ReservoirSpec[], options: ForecastGeneration): Promise<number> {
  const { startDay, endDay } = parseRange(options.firstIssue, options.lastIssue);
  const runs = reservoirs.map((spec) => forecastReservoir(spec, options.seed, options.origin, startDay, endDay, options.members));
  let months = writer.current.forecasts ?? [];
  let written = 0;
  for (let from = startDay; from <= endDay; ) {
    const date = new Date(from * 86_400_000);
    const to = Math.min(endDay, Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 86_400_000 - 1);
    const issues: Issue[] = Array.from({ length: to - from + 1 }, (_, i) => ({ issued: from + i, byName: new Map() }));
    for (const run of runs) {
      for (let day = from; day <= to; day++) {
        const ensemble = run.next().value as IssueEnsemble;
        const keep = options.keepMembers === undefined || day > endDay - options.keepMembers;
        issues[day - from]!.byName.set(ensemble.name, forecastFromMembers(ensemble.members, ensemble.count, keep));
      }
    }
    months = await writeForecastIssues(writer, months, issues);
    written += issues.length;
    options.onProgress?.(formatDay(from).slice(0, 7));
    from = to + 1;
  }
  return written;
}
