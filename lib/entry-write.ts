// evap/write: what writes a store or builds Arrow tables and Parquet bytes (docs/store.md, docs/data.md): the store
// writer, ingest, vacuum, forecasts added or loaded, records as an Arrow table or Parquet. All of it loads apache-arrow
// and parquet-wasm; a script that reads a store (evap) loads none of it.
export { addForecasts, type ForecastGeneration } from './forecast/add.js';
export { type ForecastIngestSummary, type ForecastValue, ingestForecastValues, parseForecastAnswer, parseForecastCsv } from './forecast/ingest.js';
export { recordsToArrow, recordsToTable, tableToArrowStream, tableToParquet } from './format/answer-table.js';
export { type IngestOptions, type IngestProblem, type IngestSource, type IngestSummary, ingest, textSource } from './ingest/ingest.js';
export { type VacuumOptions, type VacuumSummary, vacuumStore } from './writer/vacuum.js';
export { createStoreWriter, type ReservoirRows, type StationRows, StoreWriter, type StoreWriterOptions } from './writer/write.js';
