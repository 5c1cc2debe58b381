// evap: a store opened and read; writing, ingest, vacuum and Arrow or Parquet built from records are evap/write (they
// load apache-arrow and parquet-wasm), the notebook display evap/notebook, the HTTP client, copy and mirror evap/sync,
// the model on its own evap/model.
export * from './catalogue.js';
export { formatDay, parseDay } from './dates.js';
export { InvalidParameterError, NotFoundError, StoreError } from './errors.js';
export { EARLY_DAYS, PROVISIONAL_DAYS, type QFlag, qflagValues, type Status, statusOfDay, statusValues } from './flags.js';
// forecasts (docs/forecasts.md)
export { crps, type EnsembleStatistic, ensembleStatistics, ensembleStats, totalStats, type VerificationMetrics, verify } from './forecast/stats.js';
export type { ForecastDailyQuery, ForecastLeadQuery, ForecastTotalQuery, ForecastVerificationQuery } from './forecast/store-methods.js';
export { type ForecastVariable, forecastVariables, MAX_LEAD } from './forecast-variables.js';
export { recordsToCsv } from './format/csv.js';
export type { Frame, FrameColumn } from './format/frame.js';
export { type PointFeature, recordsToGeoJson } from './format/geojson.js';
export type { RecordStream } from './format/stream.js';
export { EvapStore, type OpenStoreOptions, openStore, StoreReader, StoreView } from './open/store.js';
export { openStoreOnce } from './open/store-once.js';
export { type Method, type Statistic, statistics } from './query/aggregate.js';
export { type NormalPeriod, type NormalStatistic, normalPeriods, normalStatistics, quantile } from './query/normals.js';
export { type Interval, intervals } from './query/periods.js';
export type {
  AggregateOptions,
  NormalsOptions,
  ReservoirAggregateQuery,
  ReservoirNormalsQuery,
  StationAggregateQuery,
  StationNormalsQuery,
} from './query/summaries.js';
export { filterPointsByShapefile } from './spatial/within.js';
export { bucketStorage } from './store/bucket.js';
export { openStorage } from './store/location.js';
export type { Manifest, StationPartition } from './store/manifest.js';
export type { S3Options } from './store/s3.js';
export { describeSnapshots, parseAsOf, readSnapshots, type SnapshotInfo, snapshotAt } from './store/snapshots.js';
export type { Storage, StoredFile, TaggedText } from './store/storage.js';
export { DEMO_COMMAND, defaultStoreDir, makeDemoStore } from './synthetic/demo.js';
export { type TableField, tableNames } from './tables/fields.js';
export { type ListedFile, type ListFilesOptions, listTableFiles } from './tables/files.js';
export { type PublishSummary, publishTables, tablesBehind } from './tables/publish.js';
export type * from './types.js';
export { convertValue, roundValue, toMetric } from './units.js';
