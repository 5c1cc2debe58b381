// An opened store: one manifest snapshot, its metadata, and every documented query as a method.
import { resolve } from 'node:path';
import type { Table } from 'apache-arrow';
import { defaults } from '../catalogue.js';
import { storeLabel } from '../display/source.js';
import { InvalidParameterError, StoreError } from '../errors.js';
import type * as forecast from '../forecast/store-methods.js';
import { listForecastVariables } from '../forecast/variable-list.js';
import type { Frame } from '../format/frame.js';
import { aroundOutputs, frameStream, type RecordStream } from '../format/stream.js';
import type { RecomputeOptions, RecomputeSummary } from '../ingest/recompute.js';
import { checkOptions, inOptionWords, type OperationName, type OptionsOf, type RecordsMethods } from '../operations.js';
import { describeStationVariables, listDatasets, listDates, listStationDates, listVariables } from '../query/info.js';
import type { ObservationPage, ObservationPageQuery } from '../query/observations.js';
import {
  boundRecords,
  estimateReadRows,
  otherKind,
  type Plan,
  planReservoirDate,
  planReservoirRange,
  planStationDate,
  planStationRange,
  resolveNames,
  resolveReservoirNames,
} from '../query/plan.js';
import { stationsOnDate } from '../query/stations-on-date.js';
import type * as summaries from '../query/summaries.js';
import { reservoirRange, reservoirsOnDate, stationRange } from '../query/timeseries.js';
import type { ReservoirModelQuery } from '../query/what-if.js';
import { aboutMetadata, demoFallbackNote, type StoreAbout, syntheticAbout, unknownAbout } from '../store/about.js';
import { readCurrentManifest, readNextManifest } from '../store/history.js';
import { HeldLease, takeLease } from '../store/lease.js';
import { openStorage } from '../store/location.js';
import { MANIFEST_FILE, type Manifest, type ReservoirFile, snapshotPath } from '../store/manifest.js';
import type { MetadataTable } from '../store/metadata.js';
import { heldBy, openSnapshot, type Snapshot } from '../store/open-snapshot.js';
import { createReaderCaches, PartitionReader, type ReaderCaches } from '../store/partitions.js';
import { readReservoirFiles, readReservoirPartition, readStationPartition } from '../store/readback.js';
import { describeSnapshots, parseAsOf, readSnapshots, type SnapshotInfo, snapshotAt } from '../store/snapshots.js';
import type { ByteSource } from '../store/source.js';
import type { Storage } from '../store/storage.js';
import { type Lent, type Opened, SharedViews } from '../store/views.js';
import { demoOptions, ensureDemoStore, findDemoStore } from '../synthetic/demo.js';
import type { StoreChanges } from '../tables/changes.js';
import type {
  DateRange,
  ReservoirDateQuery,
  ReservoirRangeQuery,
  ShapefileParts,
  StationDateQuery,
  StationRangeQuery,
  VariableInfo,
  WireRecord,
} from '../types.js';
import type { ReservoirRows, StationRows } from '../writer/write.js';
import { part, partStream } from './deferred-stream.js';
import { displayPrototype } from './stream-display.js';

export interface OpenStoreOptions {
  cacheBytes?: number; // bound on decoded column chunks kept in memory (default 256 MiB)
  footerCacheBytes?: number; // bound on parsed Parquet footers kept (default 64 MiB)
  source?: ByteSource; // where the files' bytes come from (default: the store's own: positional reads of a folder, ranged GETs of a bucket)
  codegen?: boolean; // false where generating code is forbidden (a content security policy): records are built key by key, slower
}

/**
 * Opens a store: a folder, or `s3://bucket/prefix` with the standard AWS environment (AWS_ENDPOINT_URL, AWS_REGION,
 * AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN). Default: the demo store, made on first use when the package has none.
 */
export async function openStore(location?: string | Storage, options: OpenStoreOptions = {}): Promise<EvapStore> {
  const demo = location === undefined ? await ensureDemoStore() : undefined;
  if (demo !== undefined) noteDemoFallback(demo);
  const storage = openStorage(location ?? demo!);
  const caches = createReaderCaches(options.cacheBytes ?? 256 * 2 ** 20, options.footerCacheBytes ?? 64 * 2 ** 20);
  const store = new EvapStore(storage, caches, options.source ?? storage, options.codegen ?? true);
  // the demo folder named as a store (--store data, EVAP_STORE) is the demo store too, even if written before provenance was
  store.isDemo = demo !== undefined || (typeof location === 'string' && resolve(location) === findDemoStore());
  await store.refresh();
  return store;
}

// said once a process: a script's loop opening the demo store many times hears it once
let demoNoted = false;
function noteDemoFallback(dir: string): void {
  if (demoNoted) return;
  demoNoted = true;
  console.error(demoFallbackNote(dir));
}

// the parts few processes use, loaded by their first call: a daily answer's process loads none (issue 44)
const parts = {
  summaries: part(() => import('../query/summaries.js')),
  model: part(() => import('../query/what-if.js')),
  forecast: part(() => import('../forecast/store-methods.js')),
};

/** How many views of past snapshots (as_of) a store keeps open while unused, each holding a lease, for the requests to come. */
export const KEPT_VIEWS = 4;

/**
 * What a store and a view of one of its past snapshots both answer: every documented query, read from one snapshot
 * (a store's current one, a view's own). The array methods take `asOf` (answered from the store as it was then, through
 * a view opened for the call); the stream methods read this reader's snapshot and refuse `asOf` (stream from
 * `await store.asOf(time)`), since a stream's columns are known before it is read.
 */
export abstract class StoreReader implements RecordsMethods {
  protected snapshot!: Snapshot;
  readonly root: string; // the folder or s3:// location

  constructor(readonly storage: Storage) {
    this.root = storage.location;
  }

  /** Whether the store was opened as the demo store because no location was given. */
  isDemo = false;

  /** The store's provenance and citation: the manifest's, else synthetic for the demo store, else unknown. */
  about(): StoreAbout {
    return { ...this.provenance().about };
  }

  /** Whether the store's values are synthetic (made by the generator, not observed or modelled for real). */
  get synthetic(): boolean {
    return this.provenance().about.data === 'synthetic';
  }

  // worked out once per snapshot served, not per answer (every answer's header and table metadata read it)
  protected provenance(): { about: StoreAbout; metadata: Map<string, string> } {
    if (this.known?.snapshot !== this.snapshot) {
      const recorded = this.snapshot.manifest.about;
      const about = recorded ?? (this.isDemo ? syntheticAbout(demoOptions.seed) : unknownAbout);
      this.known = { snapshot: this.snapshot, about, metadata: aboutMetadata(about) };
    }
    return this.known;
  }
  private known: { snapshot: Snapshot; about: StoreAbout; metadata: Map<string, string> } | undefined;

  /** The manifest of the snapshot being served. */
  get manifest(): Manifest {
    return this.snapshot.manifest;
  }

  /** The store as it was at `asOf`: see EvapStore.asOf; a view asks the store it came from. */
  abstract asOf(asOf: string): Promise<StoreView>;

  /** Ends this reader's claim on its snapshot: see EvapStore.close and StoreView.close. */
  abstract close(): Promise<void>;

  /** The retained snapshots, oldest first: id, time, and what each changed (files and rows it added, files it dropped). */
  async listSnapshots(): Promise<SnapshotInfo[]> {
    return describeSnapshots(await readSnapshots(this.storage));
  }

  /** The names and days of each table that changed since a snapshot (an id or a time) up to this reader's (lib/tables/changes.ts). */
  async changes(options: OptionsOf<'changes'> & { asOf?: string }): Promise<StoreChanges> {
    const { since, asOf } = checkOptions('changes', options);
    if (asOf === undefined) {
      const { diffSnapshots, oldestRetained, snapshotSince } = await import('../tables/changes.js');
      const before = since === undefined ? await oldestRetained(this.storage) : await snapshotSince(this.storage, since, this.manifest);
      return diffSnapshots(before.sequence > this.manifest.sequence ? this.manifest : before, this.manifest);
    }
    const view = await this.asOf(asOf);
    try {
      return await view.changes({ since });
    } finally {
      await view.close();
    }
  }

  protected lease = new HeldLease(async () => {}); // the snapshot's, held by the answers reading it

  // the stream's outputs hold the lease of the snapshot they read while they run; a Parquet or Arrow answer carries
  // the provenance in its metadata; in a notebook the stream shows as a table
  protected held(stream: RecordStream): RecordStream {
    const lease = this.lease;
    const about = this.provenance().metadata;
    const outer = aroundOutputs(stream, () => lease.enter()); // a new object: changed in place, not spread (which would work out its bound)
    const table = outer.table;
    outer.table = async (maxValues) => {
      const built = await table(maxValues);
      const { withTableMetadata } = await import('../format/answer-table.js'); // Arrow and parquet-wasm: loaded when a table is asked
      return withTableMetadata(built, about);
    };
    // withDisplay's one line, written here: the request path runs no notebook file (test/docs/request-path.test.ts)
    return Object.setPrototypeOf(outer, this.shown);
  }

  private readonly shown = displayPrototype(() => storeLabel(this)); // what a notebook shows of this store's streams

  /**
   * One page of a reservoir dataset's daily rows as columns, and how many rows the whole answer holds: counted from
   * row counts, the rows before the page never read (lib/query/observations.ts). Names and variables are the caller's,
   * already checked.
   */
  async reservoirObservationPage(dataset: string, query: ObservationPageQuery): Promise<ObservationPage> {
    const snapshot = this.snapshot;
    const leave = this.lease.enter();
    try {
      const { reservoirObservationPage } = await import('../query/observations.js');
      return await reservoirObservationPage(snapshot, dataset, query);
    } finally {
      leave();
    }
  }

  /** Reservoir records over a date range, streamed in batches (validation happens before the first batch). */
  streamReservoirTimeseries(query: ReservoirRangeQuery = {}): RecordStream {
    return this.stream('reservoirTimeseries', query, planReservoirRange, reservoirRange);
  }

  /** Reservoir records over a date range: `[{RES_NAME, start_date, end_date, "NetE (mm)": ...}, ...]`. */
  reservoirTimeseries(query: ReservoirRangeQuery = {}): Promise<WireRecord[]> {
    return this.answer('reservoirTimeseries', query, (store, q) => store.streamReservoirTimeseries(q));
  }

  /** Every reservoir's records on one date. */
  streamReservoirTimeseriesOnDate(query: ReservoirDateQuery = {}): RecordStream {
    return this.stream('reservoirTimeseriesOnDate', query, planReservoirDate, reservoirsOnDate);
  }

  /** Every reservoir's records on one date, as an array. */
  reservoirTimeseriesOnDate(query: ReservoirDateQuery = {}): Promise<WireRecord[]> {
    return this.answer('reservoirTimeseriesOnDate', query, (store, q) => store.streamReservoirTimeseriesOnDate(q));
  }

  /** Station records over a date range, streamed in batches. */
  streamStationTimeseries(query: StationRangeQuery = {}): RecordStream {
    return this.stream('stationTimeseries', query, planStationRange, stationRange);
  }

  /** Station records over a date range, as an array. */
  stationTimeseries(query: StationRangeQuery = {}): Promise<WireRecord[]> {
    return this.answer('stationTimeseries', query, (store, q) => store.streamStationTimeseries(q));
  }

  /** Every station's records on one date. */
  streamStationTimeseriesOnDate(query: StationDateQuery = {}): RecordStream {
    return this.stream('stationTimeseriesOnDate', query, planStationDate, stationsOnDate); // a plan on a date names every station
  }

  /** Every station's records on one date, as an array. */
  stationTimeseriesOnDate(query: StationDateQuery = {}): Promise<WireRecord[]> {
    return this.answer('stationTimeseriesOnDate', query, (store, q) => store.streamStationTimeseriesOnDate(q));
  }

  // a streamed query's records as an array, from the snapshot current at `asOf` when one is given; with
  // `modifiedSince`, only those whose values differ from that snapshot's (lib/query/modified-since.ts)
  protected async answer<Q extends { asOf?: string; modifiedSince?: string }>(
    operation: OperationName,
    options: Q,
    stream: (reader: StoreReader, query: Q) => RecordStream,
  ): Promise<WireRecord[]> {
    const { modifiedSince, ...query } = checkOptions(operation, options) as Q;
    if (modifiedSince === undefined) return this.whole(operation, options, stream, (s) => s.records());
    const now = query.asOf === undefined ? this : await this.asOf(query.asOf);
    try {
      const { modifiedSinceStream } = await import('../query/modified-since.js'); // loaded by the first such answer
      return await (await modifiedSinceStream(now, modifiedSince, (reader) => stream(reader, { ...query, asOf: undefined } as Q))).records();
    } finally {
      if (now !== this) await (now as StoreView).close();
    }
  }

  // one whole output of a streamed query (its records, its table), from the snapshot current at `asOf` when one is given
  protected async whole<Q extends { asOf?: string }, T>(
    operation: OperationName,
    options: Q,
    stream: (reader: StoreReader, query: Q) => RecordStream,
    output: (answer: RecordStream) => Promise<T>,
  ): Promise<T> {
    try {
      const query = checkOptions(operation, options);
      if (query.asOf === undefined) return await output(stream(this, query));
      const view = await this.asOf(query.asOf);
      try {
        return await output(stream(view, { ...query, asOf: undefined }));
      } finally {
        await view.close();
      }
    } catch (error) {
      throw inOptionWords(operation, error); // start, not start_date: the option the caller wrote
    }
  }

  // a query planned once against the current snapshot (so errors come before the first batch), then read frame by frame
  protected stream<Q extends { asOf?: string }>(
    operation: OperationName,
    options: Q,
    plan: (s: Snapshot, query: Q) => Plan,
    read: (s: Snapshot, plan: Plan) => AsyncIterable<Frame>,
  ): RecordStream {
    return this.streamOf(operation, options, (s, query) => {
      const planned = plan(s, query);
      return frameStream(
        planned.header,
        () => read(s, planned),
        estimateReadRows(s, planned),
        () => boundRecords(s, planned),
        s.codegen,
      );
    });
  }

  // a stream of this reader's snapshot, its options checked as the operations table says (asOf refused: see the class)
  protected streamOf<Q extends { asOf?: string }>(operation: OperationName, options: Q, open: (s: Snapshot, query: Q) => RecordStream): RecordStream {
    try {
      const query = checkOptions(operation, options);
      refuseAsOf(query.asOf);
      if ((query as { modifiedSince?: string }).modifiedSince !== undefined)
        throw new InvalidParameterError('modified_since', 'a streamed answer holds every record; ask the array method for the records modified since');
      return this.held(open(this.snapshot, query));
    } catch (error) {
      throw inOptionWords(operation, error); // start, not start_date: the option the caller wrote
    }
  }

  /** Reservoir records as an Arrow table: the stream's table() (columns named like the wire keys), `asOf` allowed. */
  reservoirTimeseriesTable(query: ReservoirRangeQuery = {}): Promise<Table> {
    return this.whole(
      'reservoirTimeseries',
      query,
      (store, q) => store.streamReservoirTimeseries(q),
      (s) => s.table(),
    );
  }

  /** Station records as an Arrow table: the stream's table(), `asOf` allowed. */
  stationTimeseriesTable(query: StationRangeQuery = {}): Promise<Table> {
    return this.whole(
      'stationTimeseries',
      query,
      (store, q) => store.streamStationTimeseries(q),
      (s) => s.table(),
    );
  }

  /** Monthly, annual or water-year aggregates of reservoirs (`interval`, `statistic`, `compareTo`): see docs/aggregates.md. */
  streamReservoirAggregates(options: summaries.ReservoirAggregateQuery = {}): RecordStream {
    return this.streamOf('reservoirAggregates', options, (s, q) => partStream(parts.summaries, (m) => m.streamReservoirAggregates(s, q)));
  }

  /** Monthly, annual or water-year aggregates of stations. */
  streamStationAggregates(options: summaries.StationAggregateQuery = {}): RecordStream {
    return this.streamOf('stationAggregates', options, (s, q) => partStream(parts.summaries, (m) => m.streamStationAggregates(s, q)));
  }

  /** Reservoir aggregates as an array; the stream's table() gives any answer as an Arrow table. */
  reservoirAggregates(query: summaries.ReservoirAggregateQuery = {}): Promise<WireRecord[]> {
    return this.answer('reservoirAggregates', query, (store, q) => store.streamReservoirAggregates(q));
  }

  /** Station aggregates as an array. */
  stationAggregates(query: summaries.StationAggregateQuery = {}): Promise<WireRecord[]> {
    return this.answer('stationAggregates', query, (store, q) => store.streamStationAggregates(q));
  }

  /**
   * What if: lem and nete-volume-calcs computed by the DLEM from the store's own forcing under a scenario (ta_delta,
   * depth_m, stage_delta, area_scale, wind_scale, tds), daily or as `interval` totals: see docs/model.md.
   */
  streamReservoirModel(options: ReservoirModelQuery = {}): RecordStream {
    return this.streamOf('reservoirModel', options, (s, q) => partStream(parts.model, (m) => m.streamReservoirModel(s, q)));
  }

  /** The what-if answer as an array (`asOf` allowed: the forcing as it was then). */
  reservoirModel(query: ReservoirModelQuery = {}): Promise<WireRecord[]> {
    return this.answer('reservoirModel', query, (store, q) => store.streamReservoirModel(q));
  }

  /** Normals of reservoirs by calendar month or day of the year: n, mean, min, max and percentiles. */
  streamReservoirNormals(options: summaries.ReservoirNormalsQuery = {}): RecordStream {
    return this.streamOf('reservoirNormals', options, (s, q) => partStream(parts.summaries, (m) => m.streamReservoirNormals(s, q)));
  }

  /** Normals of stations by calendar month or day of the year. */
  streamStationNormals(options: summaries.StationNormalsQuery = {}): RecordStream {
    return this.streamOf('stationNormals', options, (s, q) => partStream(parts.summaries, (m) => m.streamStationNormals(s, q)));
  }

  /** Reservoir normals as an array. */
  reservoirNormals(query: summaries.ReservoirNormalsQuery = {}): Promise<WireRecord[]> {
    return this.answer('reservoirNormals', query, (store, q) => store.streamReservoirNormals(q));
  }

  /** Station normals as an array. */
  stationNormals(query: summaries.StationNormalsQuery = {}): Promise<WireRecord[]> {
    return this.answer('stationNormals', query, (store, q) => store.streamStationNormals(q));
  }

  // ---- forecasts (lib/forecast/, docs/forecasts.md) ----

  /** The ensemble forecast of one issue (`issued`, default latest), a record per reservoir and lead day. */
  streamForecastDaily(options: forecast.ForecastDailyQuery = {}): RecordStream {
    return this.forecastStream('forecastDaily', options, (m) => m.forecastDaily);
  }

  /** Per valid date, the forecast issued `lead` days before, with the day's estimate (`observed`). */
  streamForecastLead(options: forecast.ForecastLeadQuery = {}): RecordStream {
    return this.forecastStream('forecastLead', options, (m) => m.forecastLead);
  }

  /** The statistics of the total over the leads of one issue, per reservoir (from the members: sum first). */
  streamForecastTotal(options: forecast.ForecastTotalQuery = {}): RecordStream {
    return this.forecastStream('forecastTotal', options, (m) => m.forecastTotal);
  }

  /** Verification of the issues in a range against the estimates that came: per reservoir, variable and lead. */
  streamForecastVerification(options: forecast.ForecastVerificationQuery = {}): RecordStream {
    return this.forecastStream('forecastVerification', options, (m) => m.forecastVerification);
  }

  forecastDaily(query: forecast.ForecastDailyQuery = {}): Promise<WireRecord[]> {
    return this.answer('forecastDaily', query, (store, q) => store.streamForecastDaily(q));
  }

  forecastLead(query: forecast.ForecastLeadQuery = {}): Promise<WireRecord[]> {
    return this.answer('forecastLead', query, (store, q) => store.streamForecastLead(q));
  }

  forecastTotal(query: forecast.ForecastTotalQuery = {}): Promise<WireRecord[]> {
    return this.answer('forecastTotal', query, (store, q) => store.streamForecastTotal(q));
  }

  forecastVerification(query: forecast.ForecastVerificationQuery = {}): Promise<WireRecord[]> {
    return this.answer('forecastVerification', query, (store, q) => store.streamForecastVerification(q));
  }

  /** Per reservoir (RES_NAMES' default, or ALL for every one), the first and last issue date of its forecasts. */
  async listForecastIssues(names?: readonly string[]): Promise<forecast.ForecastIssueRange[]> {
    const snapshot = this.snapshot;
    return (await parts.forecast.load()).listForecastIssues({ snapshot }, names);
  }

  /** The forecast variables, their units and the statistics kept. */
  listForecastVariables(names?: readonly string[]): forecast.ForecastVariableInfo[] {
    if (names !== undefined) resolveReservoirNames(this.snapshot, names); // refused as the forecast paths refuse them (plan.ts: no forecast module loaded)
    return listForecastVariables();
  }

  private forecastStream<Q extends { asOf?: string }>(
    operation: OperationName,
    options: Q,
    make: (module: typeof forecast) => (source: forecast.ForecastSource, query: Q) => RecordStream,
  ): RecordStream {
    return this.streamOf(operation, options, (snapshot, query) =>
      partStream(parts.forecast, (m) =>
        make(m)(
          {
            snapshot,
            estimates: (names, variables, start, end) => m.readEstimates(snapshot, names, variables, start, end),
          },
          query,
        ),
      ),
    );
  }

  /** The datasets the store holds. */
  listDatasets(): string[] {
    return listDatasets(this.snapshot.manifest);
  }

  /** The variables of a dataset (default nete-volume-calcs). */
  listVariables(dataset?: string): VariableInfo[] {
    return listVariables(this.snapshot.manifest, dataset);
  }

  /** The date range of a dataset variable (default nete-volume-calcs, NetE). */
  listDates(dataset?: string, variable?: string): DateRange[] {
    return listDates(this.snapshot.manifest, dataset, variable);
  }

  /** Reservoir names, sorted; only those inside the shapefile's polygons when one is given. */
  async listReservoirNames(shapefile?: ShapefileParts): Promise<string[]> {
    return this.namesInside(this.snapshot.manifest.reservoirs.names, this.snapshot.reservoirs, shapefile);
  }

  /** Station names, sorted; only those inside the shapefile's polygons when one is given. */
  async listStationNames(shapefile?: ShapefileParts): Promise<string[]> {
    return this.namesInside(this.snapshot.manifest.stations.names, this.snapshot.stations, shapefile);
  }

  /** The variables held by the given stations, or by every station (`ALL_STATIONS`, the default). */
  listStationVariables(names?: readonly string[]): VariableInfo[] {
    return describeStationVariables(this.heldStationVariables(this.stationsOrAll(names)));
  }

  /** The first and last date with data over the given stations, or over every station. */
  listStationDates(names?: readonly string[]): DateRange[] {
    return listStationDates(this.snapshot.manifest, this.stationsOrAll(names));
  }

  /** Metadata of reservoirs (default LAKE ALICE, LAKE ESTES), sorted by name. */
  reservoirMetadata(names?: readonly string[]): WireRecord[] {
    const s = this.snapshot;
    return resolveReservoirNames(s, names).map((n) => s.reservoirs.byName.get(n) ?? { RES_NAME: n });
  }

  /** Metadata of stations (default ABERDEEN_STATION, ABIQUIU DAM_STATION), sorted by name. */
  stationMetadata(names?: readonly string[]): WireRecord[] {
    const s = this.snapshot;
    return resolveNames(names, defaults.STA_NAMES_METADATA, s.stationNames, 'STA_NAMES', 'station', otherKind(s, 'station')).map(
      (n) => s.stations.byName.get(n) ?? { STA_NAME: n },
    );
  }

  /** Metadata rows of every reservoir or station, as the writer takes them. */
  metadataRows(kind: 'reservoirs' | 'stations'): WireRecord[] {
    return [...this.snapshot[kind].byName.values()].map((r) => ({ ...r }));
  }

  private stationsOrAll(names: readonly string[] | undefined): string[] {
    const s = this.snapshot;
    if (names === undefined || (names.length === 1 && names[0] === defaults.ALL_STATIONS)) return s.manifest.stations.names;
    return resolveNames(names, [], s.stationNames, 'STA_NAMES', 'station', otherKind(s, 'station'));
  }

  private heldStationVariables(names: readonly string[]): readonly string[] {
    return heldBy(this.snapshot.stationVariablesHeld, names);
  }

  private async namesInside(names: readonly string[], metadata: MetadataTable, shapefile: ShapefileParts | undefined): Promise<string[]> {
    if (!shapefile || Object.values(shapefile).every((part) => part === undefined)) return [...names];
    const points = names.flatMap((name) => {
      const row = metadata.byName.get(name);
      return typeof row?.LAT === 'number' && typeof row.LON === 'number' ? [{ name, lat: row.LAT, lon: row.LON }] : [];
    });
    const { filterPointsByShapefile } = await import('../spatial/within.js'); // proj4: loaded when a shapefile is sent
    return filterPointsByShapefile(shapefile, points);
  }
}

/** An opened store. Each query reads the snapshot that was current when it started. */
export class EvapStore extends StoreReader {
  private manifestStamp: string | undefined; // of the manifest file last read
  private readonly views = new SharedViews<number, Snapshot>(KEPT_VIEWS); // past snapshots by sequence number
  private history: { sequence: number; manifests: Promise<Manifest[]> } | undefined; // the retained snapshots, as read while serving `sequence`

  constructor(
    storage: Storage,
    private readonly caches: ReaderCaches,
    private readonly source: ByteSource,
    private readonly codegen: boolean,
  ) {
    super(storage);
  }

  /** What the store has read so far (reads, bytes, footers, column chunks decoded) and what its caches hold. */
  readStats(): ReaderCaches['counts'] & { cachedColumnBytes: number; cachedFooterBytes: number } {
    return { ...this.caches.counts, cachedColumnBytes: this.caches.columns.size, cachedFooterBytes: this.caches.footers.size };
  }

  /**
   * Recomputes lem and nete-volume-calcs with the DLEM from this store's rtma and res and publishes them as a new
   * snapshot (a dry run only counts what would change), then moves to it: see docs/model.md.
   */
  async recomputeModel(options: RecomputeOptions = {}): Promise<RecomputeSummary> {
    const { recomputeStore } = await import('../ingest/recompute.js'); // the writer: loaded by a recompute only
    const summary = await recomputeStore(this.storage, this.snapshot, options);
    if (summary.snapshot) await this.refresh();
    return summary;
  }

  /**
   * Re-reads manifest.json and switches to a newer snapshot if a writer published one; returns whether it changed.
   * Calls made while one runs wait for it, then look for themselves: two at once would both load the same snapshot
   * and both say it changed (a server refreshing on a timer under load logged each switch twice).
   */
  refresh(): Promise<boolean> {
    const next = this.refreshing.then(() => this.refreshOnce());
    this.refreshing = next.catch(() => undefined);
    return next;
  }

  private refreshing: Promise<unknown> = Promise.resolve();

  private async refreshOnce(): Promise<boolean> {
    // a published snapshot is a new manifest file: same tag (size, time and inode; a bucket's ETag), nothing new
    const stamp = await this.storage.stamp(MANIFEST_FILE);
    if (this.snapshot && stamp !== undefined && stamp === this.manifestStamp && !(await readNextManifest(this.storage, this.snapshot.manifest))) return false;
    const manifest = await readCurrentManifest(this.storage);
    if (manifest === undefined) throw new StoreError(`no store at ${this.root}: manifest.json is missing`);
    this.manifestStamp = stamp;
    if (this.snapshot && manifest.snapshot === this.snapshot.manifest.snapshot) return false;
    const lease = new HeldLease(await takeLease(this.storage, manifest.sequence));
    this.snapshot = await this.load(manifest);
    const replaced = this.lease;
    this.lease = lease;
    await replaced.retire(); // at once, or when the last answer still reading the replaced snapshot ends
    return true;
  }

  /**
   * The store as it was at `asOf` (an ISO date, meaning the end of that day UTC, or an ISO time): a view answering
   * every query from the snapshot current then, whose files a vacuum keeps until `view.close()`. Refused when that is
   * older than the retained history.
   */
  async asOf(asOf: string): Promise<StoreView> {
    parseAsOf(asOf); // a malformed value is refused before anything is read
    for (let again = false; ; again = true) {
      const history = await this.retainedHistory();
      const manifest = snapshotAt(history, asOf);
      try {
        return new StoreView(this, await this.views.use(manifest.sequence, () => this.openView(manifest, manifest === history.at(-1))));
      } catch (error) {
        if (!(error instanceof RetiredSnapshotError) || again) throw error;
        this.history = undefined; // a vacuum retired it since the history was read: read it again
      }
    }
  }

  // the retained snapshots, read again only once the store serves another one (refresh() follows manifest.json): a
  // repeated as_of reads no manifest
  private retainedHistory(): Promise<Manifest[]> {
    const sequence = this.snapshot.manifest.sequence;
    if (this.history?.sequence !== sequence) {
      const manifests = readSnapshots(this.storage);
      manifests.catch(() => this.history?.manifests === manifests && (this.history = undefined)); // a failed read is tried again next time
      this.history = { sequence, manifests };
    }
    return this.history.manifests;
  }

  // a past snapshot opened for reading, under a lease taken before its files are read
  private async openView(manifest: Manifest, newest: boolean): Promise<Opened<Snapshot>> {
    const release = await takeLease(this.storage, manifest.sequence);
    try {
      // the history may be older than the last vacuum: a snapshot it retired stays retired, whatever lease is taken now
      if (!newest && !(await this.storage.exists(snapshotPath(manifest.sequence)))) throw new RetiredSnapshotError(manifest.sequence);
      const value = manifest.snapshot === this.snapshot.manifest.snapshot ? this.snapshot : await this.load(manifest);
      return { value, release };
    } catch (error) {
      await release();
      throw error;
    }
  }

  /**
   * Gives up this store's claim on its snapshot and on the past ones it kept open: a later vacuum may retire their
   * files. Queries still work until then.
   */
  async close(): Promise<void> {
    await this.lease.retire();
    await this.views.close();
    await this.source.close?.();
  }

  private load(manifest: Manifest): Promise<Snapshot> {
    return openSnapshot(manifest, new PartitionReader(this.source, this.caches), this.codegen);
  }

  // what the writer reads back of the snapshot it builds on (ingest, mirror's update): not part of the read API of a view

  /** Every row of one dataset-year, as the writer takes them (sorted by name then date); undefined if absent. */
  readReservoirPartition(dataset: string, year: number): Promise<ReservoirRows | undefined> {
    return readReservoirPartition(this.snapshot, dataset, year);
  }

  /** Every row of some files of one dataset, as the writer takes them (sorted by name then date). */
  readReservoirFiles(dataset: string, files: readonly ReservoirFile[]): Promise<ReservoirRows> {
    return readReservoirFiles(this.snapshot, dataset, files);
  }

  /** Every row of one station, as the writer takes them; undefined if the station has no data. */
  readStationPartition(name: string): Promise<StationRows | undefined> {
    return readStationPartition(this.snapshot, name);
  }
}

/**
 * The store as it was at a past time (from `store.asOf(time)`): every query of the store, answered from that snapshot,
 * whose files a vacuum keeps until `close()`. Closing ends this view's use only, once the answers streaming from it
 * have ended: the snapshot stays leased while the store keeps it among the views it keeps open, or while another use
 * of it is under way.
 */
export class StoreView extends StoreReader {
  constructor(
    private readonly store: EvapStore,
    lent: Lent<Snapshot>,
  ) {
    super(store.storage);
    this.snapshot = lent.value;
    this.isDemo = store.isDemo;
    this.lease = new HeldLease(lent.done); // its use of the shared view, held by its streams as a lease is
  }

  /** The store as it was at `asOf`, asked of the store this view came from. */
  asOf(asOf: string): Promise<StoreView> {
    return this.store.asOf(asOf);
  }

  async close(): Promise<void> {
    await this.lease.retire();
  }
}

// a stream answers from the snapshot it was asked of; a past one is `(await store.asOf(time)).stream...(query)`
function refuseAsOf(asOf: string | undefined): void {
  if (asOf !== undefined)
    throw new InvalidParameterError('as_of', 'a streamed answer reads the current snapshot; stream from (await store.asOf(time)) instead');
}

/** Raised when a past snapshot found in a cached history was retired by a vacuum since. */
class RetiredSnapshotError extends StoreError {
  constructor(sequence: number) {
    super(`snapshot ${sequence} was retired by a vacuum while it was being opened; ask again`);
  }
}
