// evap info: what a store or server holds, as the API's /info paths answer it.
import { ALL_NAMES, type DatasetName, reservoirDatasets } from '../../lib/catalogue.js';
import { type OperationName, operations } from '../../lib/operations.js';
import { aboutEntries, type StoreAbout } from '../../lib/store/about.js';
import type { WireRecord } from '../../lib/types.js';
import { listFlag, readArgs, stringFlag } from '../args.js';
import { UsageError } from '../command.js';
import type { CliIo } from '../io.js';
import { chooseFormat, formatUsage, writeRecords } from '../output.js';
import { openSource, type Source, sourceFlags, sourceUsage } from '../source.js';

// the path each topic answers as, from the operations table
const at = (operation: OperationName) => `${operations[operation].method} ${operations[operation].path}`;

export const usage = `evap info [about | datasets | variables | dates | reservoirs | stations | station-variables | station-dates] [options]
  Without a topic: each dataset's variables and dates, how many reservoirs and stations there are, and how many
  reservoirs have forecasts with their first and last issue date (evap forecast --list names them); on stderr, where
  the data come from.
  about                   where the data come from and how to cite them (${at('about')})
  datasets                the datasets, each with what it holds (${at('listDatasets')})
  variables               a dataset's variables, --dataset D    (${at('listVariables')})
  dates                   a variable's first and last date, --dataset D --variable V   (${at('listDates')})
  reservoirs, stations    the names                             (${at('listReservoirNames')}, ${at('listStationNames')})
  station-variables       what stations measure, --names A,B (default all)  (${at('listStationVariables')})
  station-dates           the stations' first and last date, --names A,B    (${at('listStationDates')})
${formatUsage}
${sourceUsage}`;

type Records = Promise<WireRecord[]> | WireRecord[];
const named = (key: string) => async (names: Promise<string[]> | string[]) => (await names).map((n) => ({ [key]: n }));

// topic -> its records
const topics: Record<string, (source: Source, dataset?: string, variable?: string, names?: string[]) => Records> = {
  about: async (s) => aboutEntries(await s.about()).map(([field, value]) => ({ field, value })),
  datasets: async (s) => (await s.listDatasets()).map((dataset) => ({ dataset, description: describeDataset(dataset) })),
  variables: (s, dataset) => s.listVariables(dataset),
  dates: (s, dataset, variable) => s.listDates(dataset, variable),
  reservoirs: (s) => named('RES_NAME')(s.listReservoirNames()),
  stations: (s) => named('STA_NAME')(s.listStationNames()),
  'station-variables': (s, _d, _v, names) => s.listStationVariables(names),
  'station-dates': (s, _d, _v, names) => s.listStationDates(names),
};

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = readArgs(argv, {
    ...sourceFlags,
    dataset: { type: 'string' },
    variable: { type: 'string' },
    names: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
  });
  const topic = positionals[0];
  if (topic !== undefined && !Object.hasOwn(topics, topic))
    throw new UsageError(`unknown topic ${JSON.stringify(topic)}; topics: ${Object.keys(topics).join(', ')}`);
  const out = stringFlag(values, 'out');
  const format = chooseFormat(io, stringFlag(values, 'format'), out);
  const { source, close, answered } = await openSource(values, io);
  try {
    const records =
      topic === undefined
        ? await summary(source)
        : await topics[topic]!(source, stringFlag(values, 'dataset'), stringFlag(values, 'variable'), listFlag(values, 'names'));
    await writeRecords(io, records, Object.keys(records[0] ?? {}), format, out);
    // the summary's own `data:` line names synthetic data; the note would say it a second time
    if (topic === undefined) io.stderr.write(`${describeAbout(await source.about())}\n`);
    else answered();
  } finally {
    await close();
  }
  return 0;
}

// what a dataset holds, from the catalogue (a server's dataset unknown here: null)
function describeDataset(dataset: string): string | null {
  return Object.hasOwn(reservoirDatasets, dataset) ? reservoirDatasets[dataset as DatasetName].description : null;
}

// the provenance in two lines: what the data are, and how to cite them
function describeAbout(about: StoreAbout): string {
  const marker = about.data === 'synthetic' ? 'SYNTHETIC DATA: ' : '';
  return `data: ${marker}${about.title} (${about.source}${about.retrieved ? `, retrieved ${about.retrieved}` : ''})\ncite: ${about.citation}`;
}

// one row per dataset (and one for the stations): its variables and the span of its first variable's dates
async function summary(source: Source): Promise<WireRecord[]> {
  const reservoirs = (await source.listReservoirNames()).length;
  const out: WireRecord[] = [];
  for (const dataset of await source.listDatasets()) {
    const variables = await source.listVariables(dataset);
    const [dates] = await source.listDates(dataset, variables[0]?.api_name);
    out.push({
      what: dataset,
      names: reservoirs,
      start_date: dates?.start_date ?? null,
      end_date: dates?.end_date ?? null,
      variables: variables.map((v) => v.api_name).join(' '),
    });
  }
  const stations = await source.listStationNames();
  const [dates] = await source.listStationDates();
  const variables = await source.listStationVariables();
  out.push({
    what: 'stations',
    names: stations.length,
    start_date: dates?.start_date ?? null,
    end_date: dates?.end_date ?? null,
    variables: variables.map((v) => v.api_name).join(' '),
  });
  const forecasts = await forecastSummary(source);
  if (forecasts) out.push(forecasts);
  return out;
}

// the forecasts' row: how many reservoirs have them and the span of their issue dates (none from a server without
// the forecast paths, the public one)
async function forecastSummary(source: Source): Promise<WireRecord | undefined> {
  try {
    const issues = await source.listForecastIssues([ALL_NAMES]);
    const variables = await source.listForecastVariables();
    return {
      what: 'forecasts',
      names: issues.length,
      start_date: issues.reduce<string | null>((min, r) => (min === null || r.start_date < min ? r.start_date : min), null),
      end_date: issues.reduce<string | null>((max, r) => (max === null || r.end_date > max ? r.end_date : max), null),
      variables: variables.map((v) => v.api_name).join(' '),
    };
  } catch {
    return undefined;
  }
}
