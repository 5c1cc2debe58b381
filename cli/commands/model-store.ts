// evap model --store: the model over a store's own forcing, as a recompute written as a new snapshot (or a dry run),
// or as a what-if scenario printed like a query's answer.
import { checkScenario, describeScenario, type ScenarioOptions, scenarioParameters } from '../../lib/model/scenario.js';
import { openStore } from '../../lib/open/store.js';
import { type Flags, listFlag, requiredFlag, stringFlag } from '../args.js';
import { UsageError } from '../command.js';
import type { CliIo } from '../io.js';
import { chooseFormat, writeRecords } from '../output.js';
import { storageIn } from '../paths.js';
import { progressBar } from '../progress.js';

/** Runs the recompute or the scenario the flags ask for. */
export async function runOnStore(values: Flags, io: CliIo): Promise<number> {
  const location = requiredFlag(values, 'store');
  const names = listFlag(values, 'names');
  const [start, end] = [stringFlag(values, 'start'), stringFlag(values, 'end')];
  const scenarioText = stringFlag(values, 'scenario');
  const store = await openStore(storageIn(io, location));
  try {
    if (scenarioText !== undefined) {
      if (!names) throw new UsageError('--scenario needs --names (and --start, --end): a what-if is asked of named reservoirs');
      const scenario = parseScenario(scenarioText);
      const out = stringFlag(values, 'out');
      const answer = store.streamReservoirModel({
        names,
        start,
        end,
        ...scenario,
        datasets: listFlag(values, 'datasets'),
        variables: listFlag(values, 'variables'),
        interval: stringFlag(values, 'interval'),
        units: stringFlag(values, 'units'),
      });
      const records = await answer.records();
      io.stderr.write(`scenario: ${describeScenario(checkScenario(scenario)) || 'baseline'}\n`);
      await writeRecords(io, records, answer.columns, chooseFormat(io, stringFlag(values, 'format'), out), out);
      return 0;
    }
    const dryRun = values['dry-run'] === true;
    const bar = progressBar('reservoirs computed', io.stderr);
    const summary = await store.recomputeModel({ names, start, end, dryRun, onProgress: (done, total) => bar.update(done, total, '') });
    bar.stop();
    const largest = summary.largestChange;
    io.stdout.write(
      `${summary.reservoirs} reservoirs x ${summary.days} days: ${summary.changed} of ${summary.values} values ${dryRun ? 'would change' : 'changed'}` +
        (largest ? `; the largest: ${largest.name} ${largest.date} ${largest.variable} ${largest.stored ?? 'missing'} -> ${largest.computed}` : '') +
        (summary.snapshot ? `\npublished snapshot ${summary.snapshot}` : '') +
        '\n',
    );
    return 0;
  } finally {
    await store.close();
  }
}

// `ta_delta=2,stage_delta=-10`: the wire's names, each once
function parseScenario(text: string): ScenarioOptions {
  const scenario: Record<string, string> = {};
  for (const pair of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [name, value] = pair.split('=').map((part) => part.trim());
    const parameter = scenarioParameters.find((p) => p.name === name);
    if (!parameter || value === undefined)
      throw new UsageError(`--scenario takes name=value pairs of ${scenarioParameters.map((p) => p.name).join(', ')}; got ${JSON.stringify(pair)}`);
    scenario[parameter.option] = value;
  }
  return scenario;
}
