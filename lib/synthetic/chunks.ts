// The reservoirs' rows of a generated store: simulated a chunk of names at a time (whole name ranges), period by period
// (a month or a year, as the writer lays files out), so memory stays bounded and time grows linearly with reservoirs x
// days; the chunks are independent, so a generator's workers each write some of them (generate-workers.ts).
import { type DatasetName, datasetNames, reservoirDatasets } from '../catalogue.js';
import { firstDayOfYear, formatDay, parseRange, yearOfDay } from '../dates.js';
import { encodeFlags, statusOfDay } from '../flags.js';
import { createReservoirModel, type ReservoirSpec } from '../model/index.js';
import { ROWS_PER_FILE, type StoreWriter } from '../writer/write.js';

/** What the reservoirs' rows depend on besides the reservoirs. */
export interface ChunkOptions {
  start: string;
  end: string;
  seed: number;
  rowsPerFile?: number;
}

/**
 * Simulates and writes the reservoirs' rows of chunk `index`, `index + of`, ... of the names (chunks of whole name
 * ranges, period by period, as the writer lays files out), into the writer's snapshot.
 */
export async function writeChunks(
  writer: StoreWriter,
  reservoirs: readonly ReservoirSpec[],
  options: ChunkOptions,
  part: { index: number; of: number },
  progress: (what: string) => void,
): Promise<void> {
  const { startDay, endDay } = parseRange(options.start, options.end);
  const { monthly, chunkSize, chunks } = chunking(reservoirs.length, options.rowsPerFile);
  const periods = periodsOf(startDay, endDay, monthly);
  const origin = startDay - SPIN_UP_DAYS;
  for (let c = part.index; c < chunks; c += part.of) {
    const chunk = reservoirs.slice(c * chunkSize, (c + 1) * chunkSize); // sorted by name: each chunk is a name range
    const models = chunk.map((spec) => createReservoirModel(spec, options.seed, origin));
    for (const [from, to] of periods) {
      const days = to - from + 1;
      const results = models.map((m) => m.simulate(from, to));
      const names = chunk.flatMap((r) => new Array<string>(days).fill(r.name));
      const dayColumn = new Int32Array(names.length);
      for (let i = 0; i < names.length; i++) dayColumn[i] = from + (i % days);
      const flags = {
        qflag: encodeFlags(
          'qflag',
          results.flatMap((r) => r.qflags),
        ),
        status: encodeFlags(
          'status',
          Array.from(dayColumn, (d) => statusOfDay(d, endDay)),
        ),
      };
      for (const dataset of datasetNames) {
        const values: Record<string, Float64Array> = {};
        for (const variable of Object.keys(reservoirDatasets[dataset as DatasetName].variables)) {
          const column = new Float64Array(names.length);
          results.forEach((r, k) => column.set((r.values as Record<string, Float64Array>)[variable]!, k * days));
          values[variable] = column;
        }
        Object.assign(values, flags); // the same per-day flags in every dataset's file: each file reads alone
        await writer.addReservoirRows(dataset, yearOfDay(from), { names, days: dayColumn, values });
      }
      progress(`reservoirs ${chunk[0]!.name}.. ${formatDay(from)}..${formatDay(to)}`);
    }
  }
}

/** How the reservoirs are cut into chunks of names: a month or a year per file, as the writer lays files out. */
export function chunking(reservoirs: number, rowsPerFile = ROWS_PER_FILE): { monthly: boolean; chunkSize: number; chunks: number } {
  const monthly = reservoirs * 366 > rowsPerFile; // the writer's rule: then each file holds one month
  const chunkSize = Math.max(1, Math.floor(rowsPerFile / (monthly ? 31 : 366)));
  return { monthly, chunkSize, chunks: Math.ceil(reservoirs / chunkSize) };
}

/**
 * Days the model runs before the first generated date, so that water temperature and storage have left their initial
 * state (the lake's heat-storage time constant is weeks). Fixed, so generation time grows with the days generated only.
 */
export const SPIN_UP_DAYS = 90;

/** The [from, to] day spans of the generated range, cut at every year (and month) boundary. */
export function periodsOf(startDay: number, endDay: number, monthly: boolean): [number, number][] {
  const spans: [number, number][] = [];
  for (let from = startDay; from <= endDay; ) {
    const date = new Date(from * 86_400_000);
    const next = monthly ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 86_400_000 : firstDayOfYear(date.getUTCFullYear() + 1);
    const to = Math.min(endDay, next - 1);
    spans.push([from, to]);
    from = to + 1;
  }
  return spans;
}
