// The what-if answer: lem and nete-volume-calcs computed on the fly by the DLEM from the store's own forcing, under a
// scenario, in the daily records' shape (or an interval's totals, as the aggregates give them).
import { clip as clipText } from '../dates.js';
import { InvalidParameterError } from '../errors.js';
import { type Block, blockFrame, type Frame } from '../format/frame.js';
import { frameStream, type RecordStream } from '../format/stream.js';
import { type ModelVariable, modelDatasets } from '../model/run.js';
import { checkScenario, type Scenario, type ScenarioOptions } from '../model/scenario.js';
import type { Snapshot } from '../store/open-snapshot.js';
import type { ReservoirRangeQuery } from '../types.js';
import { resolveStatistic } from './aggregate.js';
import { firstReservoirDay, latestReservoirDay } from './latest.js';
import { modelReservoirs, SPIN_UP_DAYS } from './modelled.js';
import { type Interval, intervals } from './periods.js';
import { type Plan, planReservoirRange, resolveDatasets } from './plan.js';
import { type AggregateOptions, streamReservoirAggregatesOf } from './summaries.js';
import { VALUES_PER_GROUP } from './timeseries.js';

/** A what-if query: the daily range query's options, a scenario, and optionally an interval for totals. */
export type ReservoirModelQuery = ReservoirRangeQuery & ScenarioOptions & Pick<AggregateOptions, 'statistic'> & { interval?: string };

// kernel cells a run of names holds at once: inputs and outputs are about 20 doubles a body-day
const CELLS_PER_GROUP = VALUES_PER_GROUP / 5;

/** Stored rows a what-if reads and computes per reservoir-day, counted against the heavy-answer gate as stored rows are. */
const MODEL_ROW_WEIGHT = 2;

/** The what-if answer as a RecordStream, planned (and refused) before the first batch. */
export function streamReservoirModel(s: Snapshot, query: ReservoirModelQuery): RecordStream {
  const scenario = checkScenario(query);
  resolveStatistic(query.statistic); // refused on a daily answer too, where it has nothing to do
  const interval = query.interval ?? 'daily';
  if (interval !== 'daily' && !(intervals as readonly string[]).includes(interval))
    throw new InvalidParameterError(
      'interval',
      `interval must be one of daily, ${intervals.join(', ')}; got ${JSON.stringify(clipText(interval))}`,
      'not-allowed',
      interval,
    );
  const datasets = query.datasets === undefined ? [...modelDatasets] : resolveDatasets(query.datasets);
  for (const dataset of datasets)
    if (!(modelDatasets as readonly string[]).includes(dataset))
      throw new InvalidParameterError(
        'datasets',
        `the model computes ${modelDatasets.join(' and ')}; ${dataset} is its input, read it with /timeseries`,
        'not-allowed',
        dataset,
      );
  const forcing = ['rtma', 'res'];
  const [first, last] = [firstReservoirDay(s.manifest, forcing), latestReservoirDay(s.manifest, forcing)];
  const run: Run = (names, variables, startDay, endDay) => blocksOf(s, names, variables, clip(startDay, endDay, first, last), scenario);
  if (interval !== 'daily') return streamReservoirAggregatesOf(s, { ...query, datasets, interval: interval as Interval }, run);
  const plan = planReservoirRange(s, { ...query, datasets });
  if (plan.flags.length > 0)
    throw new InvalidParameterError(
      'also_return',
      `a computed day has no ${plan.flags.join(' or ')} of its own: leave it out of also_return`,
      'not-allowed',
      plan.flags[0],
    );
  const [startDay, endDay] = clip(plan.startDay, plan.endDay, first, last);
  const days = Math.max(0, endDay - startDay + 1);
  const cells = plan.names.length * days;
  return frameStream(plan.header, () => modelFrames(plan, run, startDay, endDay), cells * MODEL_ROW_WEIGHT, cells);
}

// names one model run takes for answers of `days` days (their spin-up included) within CELLS_PER_GROUP
function namesPerRun(days: number): number {
  return Math.max(1, Math.floor(CELLS_PER_GROUP / (days + SPIN_UP_DAYS)));
}

// each name's block of the variables over the days, computed for a group of names at once
type Run = (names: readonly string[], variables: readonly string[], startDay: number, endDay: number) => Promise<Map<string, Block>>;

// the answer's frames, one a name: names in groups that fit CELLS_PER_GROUP, each group's blocks computed at once
async function* modelFrames(plan: Plan, run: Run, startDay: number, endDay: number): AsyncGenerator<Frame> {
  if (endDay < startDay) return;
  const group = namesPerRun(endDay - startDay + 1);
  for (let g = 0; g < plan.names.length; g += group) {
    const blocks = await run(
      plan.names.slice(g, g + group),
      plan.columns.map((v) => v.name),
      startDay,
      endDay,
    );
    for (const [name, block] of blocks) yield blockFrame(plan.nameKey, plan.columns, name, block, plan.attach(name), 0, block.days.length);
  }
}

// each name's outputs over the days the forcing holds, as a block of the variables
async function blocksOf(
  s: Snapshot,
  names: readonly string[],
  variables: readonly string[],
  [startDay, endDay]: [number, number],
  scenario: Scenario,
): Promise<Map<string, Block>> {
  const blocks = new Map<string, Block>();
  if (endDay < startDay) {
    for (const name of names) blocks.set(name, { days: [], columns: [] });
    return blocks;
  }
  const days = Int32Array.from({ length: endDay - startDay + 1 }, (_, t) => startDay + t);
  const group = namesPerRun(days.length);
  for (let g = 0; g < names.length; g += group) {
    const run = await modelReservoirs(s, names.slice(g, g + group), startDay, endDay, scenario);
    run.names.forEach((name, b) => {
      const slice = (column: Float64Array) => column.subarray(b * run.days, (b + 1) * run.days);
      blocks.set(name, { days, columns: variables.map((v) => slice(run.values[v as ModelVariable])) });
    });
  }
  return blocks;
}

// the days asked that the forcing holds
function clip(startDay: number, endDay: number, first: number | undefined, last: number | undefined): [number, number] {
  if (first === undefined || last === undefined) return [startDay, startDay - 1];
  return [Math.max(startDay, first), Math.min(endDay, last)];
}
