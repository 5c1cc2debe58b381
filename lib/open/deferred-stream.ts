// The store's rarely used parts (summaries, the what-if model, forecasts, changes, readback) loaded by their first
// call, not by every process that opens a store: a daily answer's process loads none of them (issue 44).
import type { Table } from 'apache-arrow';
import type { RecordStream } from '../format/stream.js';
import type { WireRecord } from '../types.js';

/** A module loaded on first use; `loaded` once it is, so that later calls run at once, as with a static import. */
interface Part<M> {
  loaded: M | undefined;
  load(): Promise<M>;
}

export function part<M>(importer: () => Promise<M>): Part<M> {
  let loading: Promise<M> | undefined;
  const it: Part<M> = {
    loaded: undefined,
    load: () => {
      loading ??= importer().then((m) => (it.loaded = m));
      loading.catch(() => (loading = undefined)); // a failed load is tried again by the next call
      return loading;
    },
  };
  return it;
}

/**
 * The stream `open` makes from the part's module: made at once (its plan's errors thrown now) when the module is
 * loaded; else a stream whose outputs load it first, then plan (a plan's error is the first output's, before any
 * record, chunk or byte). Until then its columns are unknown (filled in place when planned) and it counts as a heavy
 * answer (readRows: Infinity), so that a server admits the first one of a kind in turn.
 */
export function partStream<M>(from: Part<M>, open: (module: M) => RecordStream): RecordStream {
  if (from.loaded !== undefined) return open(from.loaded);
  let planned: Promise<RecordStream> | undefined;
  const columns: string[] = [];
  let inner: RecordStream | undefined;
  const ready = (): Promise<RecordStream> =>
    (planned ??= from.load().then((module) => {
      inner = open(module);
      columns.push(...inner.columns);
      return inner;
    }));
  const each = <T>(make: (s: RecordStream) => AsyncIterable<T>): AsyncIterable<T> => ({
    [Symbol.asyncIterator]: () =>
      (async function* () {
        yield* make(await ready());
      })(),
  });
  return {
    columns,
    readRows: Number.POSITIVE_INFINITY,
    get maxRecords() {
      return inner?.maxRecords ?? Number.POSITIVE_INFINITY; // a table's check before reading is the inner stream's own
    },
    batches: each((s) => s.batches) as AsyncIterable<WireRecord[]>,
    json: () => each((s) => s.json()),
    csv: () => each((s) => s.csv()),
    records: async () => (await ready()).records(),
    table: async (maxValues?: number): Promise<Table> => (await ready()).table(maxValues),
  };
}
