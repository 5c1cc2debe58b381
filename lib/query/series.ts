// One name's daily values over a range, as aligned columns: what aggregates and normals are computed from.
import { formatDay, overlaps } from '../dates.js';
import type { Block } from '../format/frame.js';
import type { ResolvedVariable } from '../format/variable.js';
import type { TimeseriesSource } from '../store/open-snapshot.js';
import { alignSpans, readNameRows, readNamesRows, readReservoirSpans } from './timeseries.js';

/** A reservoir's days in [startDay, endDay] with one column per variable (NaN for a gap), all years at once. */
export async function reservoirSeries(
  source: TimeseriesSource,
  name: string,
  variables: readonly ResolvedVariable[],
  startDay: number,
  endDay: number,
): Promise<Block> {
  return alignSpans(await readReservoirSpans(source, name, variables, [], startDay, endDay), variables);
}

/** A station's days in [startDay, endDay] with one column per variable (undefined where it does not measure one). */
export async function stationSeries(
  source: TimeseriesSource,
  name: string,
  variables: readonly ResolvedVariable[],
  startDay: number,
  endDay: number,
): Promise<Block> {
  const partition = source.manifest.stations.partitions[name];
  if (!partition || !overlaps(partition, formatDay(startDay), formatDay(endDay))) return { days: [], columns: [] };
  const span = await readNameRows(
    source.reader,
    [partition],
    undefined,
    startDay,
    endDay,
    variables.map((v) => v.name),
  );
  return { days: span.days, columns: variables.map((v) => span.column(v.name)) };
}

/** Several reservoirs' days at once (names sorted), each row group read once (readNamesRows), aligned per name. */
export async function reservoirSeriesMany(
  source: TimeseriesSource,
  names: readonly string[],
  variables: readonly ResolvedVariable[],
  startDay: number,
  endDay: number,
): Promise<Map<string, Block>> {
  if (names.length === 1) return new Map([[names[0]!, await reservoirSeries(source, names[0]!, variables, startDay, endDay)]]);
  const datasets = [...new Set(variables.map((v) => v.dataset!))];
  const columns = new Map(datasets.map((d) => [d, variables.filter((v) => v.dataset === d).map((v) => v.name)]));
  const read = await readNamesRows(source, names, columns, startDay, endDay);
  return new Map([...read].map(([name, spans]) => [name, alignSpans(spans, variables)]));
}
