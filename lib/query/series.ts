// One name's daily values over a range, as aligned columns: what aggregates and normals are computed from.
import { formatDay, yearOfDay } from '../dates.js';
import type { Block } from '../format/emit.js';
import type { TimeseriesSource } from '../store/open-snapshot.js';
import type { ResolvedVariable } from './query.js';
import { rowsWithin, runEnd } from './search.js';
import { alignSpans, fileHoldsNames, groupHoldsDays, groupHoldsNames, joinParts, overlaps, type RowSpan, readNameRows } from './timeseries.js';

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

/**
 * Several reservoirs' days at once (names sorted), each row group read once and cut into the names' runs: for many
 * names this replaces a footer lookup and a binary search per name and row group (every reservoir for a year: the
 * per-name reads were most of the time).
 */
export async function reservoirSeriesMany(
  source: TimeseriesSource,
  names: readonly string[],
  variables: readonly ResolvedVariable[],
  startDay: number,
  endDay: number,
): Promise<Map<string, Block>> {
  if (names.length === 1) return new Map([[names[0]!, await reservoirSeries(source, names[0]!, variables, startDay, endDay)]]);
  const wanted = new Set(names);
  const [lo, hi] = [names[0]!, names[names.length - 1]!];
  const [startText, endText] = [formatDay(startDay), formatDay(endDay)];
  const parts = new Map<string, Map<string, { days: Int32Array[]; values: (Float64Array | undefined)[][] }>>(names.map((n) => [n, new Map()]));
  const datasets = [...new Set(variables.map((v) => v.dataset!))];
  for (const dataset of datasets) {
    const columns = variables.filter((v) => v.dataset === dataset).map((v) => v.name);
    const byYear = source.partitionsByYear.get(dataset);
    for (let year = yearOfDay(startDay); byYear && year <= yearOfDay(endDay); year++) {
      for (const file of byYear.get(year)?.files ?? []) {
        if (!fileHoldsNames(file, lo, hi, startText, endText)) continue;
        const footer = await source.reader.footer(file);
        for (let g = 0; g < footer.metadata.row_groups.length; g++) {
          if (!groupHoldsDays(footer, g, startDay, endDay) || !groupHoldsNames(footer, g, lo, hi)) continue;
          const read = await source.reader.columns(file, g, ['date', 'RES_NAME', ...columns]);
          const days = read[0] as Int32Array;
          const rowNames = read[1] as readonly string[];
          for (let start = 0, end = 0; start < days.length; start = end) {
            end = runEnd(rowNames, start);
            const name = rowNames[start]!;
            if (wanted.has(name)) {
              const [first, last] = rowsWithin(days, startDay, endDay, start, end);
              if (last > first) {
                const held = parts.get(name)!;
                const part = held.get(dataset) ?? { days: [], values: [] };
                held.set(dataset, part);
                part.days.push(days.subarray(first, last));
                part.values.push(read.slice(2).map((c) => (c as Float64Array | undefined)?.subarray(first, last)));
              }
            }
          }
        }
      }
    }
  }
  const out = new Map<string, Block>();
  for (const [name, held] of parts) {
    const spans = new Map<string, RowSpan>();
    for (const [dataset, part] of held)
      spans.set(
        dataset,
        joinParts(
          part.days,
          part.values,
          variables.filter((v) => v.dataset === dataset).map((v) => v.name),
        ),
      );
    out.set(name, alignSpans(spans, variables));
  }
  return out;
}
