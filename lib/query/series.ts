// One name's daily values over a range, as aligned columns: what aggregates and normals are computed from.
import { formatDay, yearOfDay } from '../dates.js';
import type { Block } from '../format/emit.js';
import type { TimeseriesSource } from '../store/open-snapshot.js';
import type { ResolvedVariable } from './query.js';
import { alignSpans, fileHoldsNames, overlaps, type RowSpan, readNameRows, readNamesRows } from './timeseries.js';

/** A reservoir's days in [startDay, endDay] with one column per variable (NaN for a gap), all years at once. */
export async function reservoirSeries(
  source: TimeseriesSource,
  name: string,
  variables: readonly ResolvedVariable[],
  startDay: number,
  endDay: number,
): Promise<Block> {
  const datasets = [...new Set(variables.map((v) => v.dataset!))];
  const [startText, endText] = [formatDay(startDay), formatDay(endDay)];
  const spans = new Map<string, RowSpan>();
  for (const dataset of datasets) {
    const byYear = source.partitionsByYear.get(dataset);
    if (!byYear) continue;
    const files = [];
    for (let year = yearOfDay(startDay); year <= yearOfDay(endDay); year++) {
      for (const f of byYear.get(year)?.files ?? []) {
        if (fileHoldsNames(f, name, name, startText, endText)) files.push(f);
      }
    }
    const columns = variables.filter((v) => v.dataset === dataset).map((v) => v.name);
    if (files.length > 0) spans.set(dataset, await readNameRows(source.reader, files, name, startDay, endDay, columns));
  }
  return alignSpans(spans, variables);
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
