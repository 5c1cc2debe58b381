// Mirror: copy a server speaking the documented API into a store, in chunks (a reservoir-year, a station), politely
// (bounded concurrency; the client retries 429/5xx with backoff) and resumably: every completed unit of chunks is
// committed as a snapshot and recorded in mirror-progress.json, which a later run reads to skip it.

import { firstDayOfYear, formatDay, parseDay, yearOfDay } from '../dates.js';
import { InvalidParameterError } from '../errors.js';
import { applyStaging, type StagedMetadata } from '../ingest/apply.js';
import type { IngestProblem } from '../ingest/ingest.js';
import { metadataRow, WideReader } from '../ingest/records.js';
import { Staging } from '../ingest/stage.js';
import { openStore } from '../open/store.js';
import { pathOf } from '../operations.js';
import { mirrorAbout, OPEREVAP_URL, type StoreAbout, TWDB_URL } from '../store/about.js';
import { openStorage } from '../store/location.js';
import { openReadback, type Readback } from '../store/readback.js';
import type { Storage } from '../store/storage.js';
import type { WireRecord } from '../types.js';
import { type ClientOptions, createClient, type EvapClient } from './client.js';
import { askSource, type ChangedRequest, planChanges, type SourceSnapshot } from './mirror-changes.js';
import { planUpdate } from './mirror-update.js';
import { runPool } from './pool.js';

export const PROGRESS_FILE = 'mirror-progress.json';

export interface MirrorOptions extends Omit<ClientOptions, 'signal'> {
  since?: string; // copy only dates from this one on (YYYY-MM-DD): an incremental update
  update?: boolean; // fetch what changed since the last pull (an evap server's /changes), else the days not Final and newer ones
  concurrency?: number; // requests in flight (default 4)
  stationsPerUnit?: number; // stations committed together (default 8)
  signal?: AbortSignal; // stops the mirror; what was committed stays, and a later run resumes
  onProgress?: (done: number, total: number, what: string) => void;
}

export interface MirrorSummary {
  chunks: number; // timeseries requests made
  resumed: number; // units skipped because an interrupted run had completed them
  records: number; // records received
  added: number; // store rows that did not exist before
  replaced: number; // store rows replaced
  rejected: number; // records that could not be stored (e.g. a name without metadata)
  problems: IngestProblem[];
  snapshot: string | null; // the last snapshot published
  source: number | null; // the server's snapshot this copy was pulled at (an evap server; null: one without /changes)
  mode: 'full' | 'since' | 'changes' | 'statuses'; // how the days to fetch were found: all, --since, GET /changes, the copy's statuses
  why: string; // why this mode, in words
}

interface Progress {
  format: 'evap-mirror-progress';
  from: string;
  since: string | null;
  done: string[]; // units committed
  complete: boolean;
  snapshot?: number; // the server's snapshot when this run began: the copy holds at least it once the run is complete
  pulled?: number; // the snapshot of the last complete run, kept while this one is under way (what --update asks /changes since)
}

/** A unit: chunks whose records are committed together. */
interface Unit {
  id: string;
  chunks: { what: string; fetch: (client: EvapClient) => Promise<WireRecord[]> }[];
}

// the copy's provenance: the public service's citation, or what another evap server says of its own data
async function sourceAbout(client: EvapClient, baseUrl: string, previous: StoreAbout | undefined): Promise<StoreAbout> {
  const retrieved = new Date().toISOString();
  const host = new URL(baseUrl).host;
  if (host === new URL(OPEREVAP_URL).host || host === new URL(TWDB_URL).host) return mirrorAbout(baseUrl, retrieved); // its documentation's citation
  const told = await client.about().catch(() => undefined); // a server without /info/about: nothing more is known
  return mirrorAbout(baseUrl, retrieved, told ?? previous);
}

/** Copies the server at `options.baseUrl` into the store in `dir` (created when absent); resumes an interrupted run. */
export async function mirror(location: string | Storage, options: MirrorOptions): Promise<MirrorSummary> {
  const dir = openStorage(location);
  const client = createClient(options);
  const since = options.since === undefined ? null : formatDay(parseDay(options.since, 'since'));
  if (options.update && since !== null) throw new InvalidParameterError('since', '--since and --update exclude each other: --update finds the days itself');
  const progress = await readProgress(dir, options.baseUrl, options.update ? UPDATE : since);
  const done = new Set(progress.done);
  let base = await openReadback(dir); // the snapshot each commit builds on, none for a new copy
  if (options.update && !base) throw new InvalidParameterError('update', `--update needs a copy to update; ${dir.location} holds no store yet`);
  const about = await sourceAbout(client, options.baseUrl, base?.manifest.about);
  // the server's snapshot now (recorded once the run completes) and, for an update, what changed since the last pull
  const source: SourceSnapshot = await askSource(client, options.update ? progress.pulled : undefined);
  progress.snapshot ??= source.current; // a resumed run keeps the snapshot it began at
  const mode = !options.update ? (since === null ? 'full' : 'since') : source.changes ? 'changes' : 'statuses';
  const summary: MirrorSummary = {
    ...{ chunks: 0, resumed: 0, records: 0, added: 0, replaced: 0, rejected: 0, problems: [], snapshot: null },
    ...{ source: progress.snapshot ?? null, mode, why: mode === 'full' || mode === 'since' ? `not --update` : source.why },
  };
  const plan = source.changes && planChanges(source.changes);
  const units = plan
    ? changedUnits(plan.reservoirs, plan.stations)
    : options.update
      ? await planUpdateUnits(client, dir, options.stationsPerUnit ?? 8)
      : await planUnits(client, since, options.stationsPerUnit ?? 8);
  let finished = 0;
  const total = units.reduce((n, u) => n + u.chunks.length, 0) + 1;
  const tick = (what: string) => options.onProgress?.(++finished, total, what);

  // metadata first: the timeseries records name reservoirs and stations that must have a metadata row
  if (plan && !plan.metadata) {
    // the metadata tables did not change: nothing to ask
  } else if (!done.has('metadata')) {
    const metadata = await fetchMetadata(client);
    const applied = await applyStaging(dir, base, new Staging(), metadata, undefined, about);
    summary.snapshot = applied.snapshot ?? summary.snapshot;
    base = await reopen(dir, base);
    await markDone(dir, progress, 'metadata');
  } else summary.resumed++;
  tick('metadata');

  let commits = Promise.resolve();
  const commit = (unit: Unit, staging: Staging) => {
    commits = commits.then(async () => {
      const applied = await applyStaging(dir, base, staging, { reservoirs: new Map(), stations: new Map() }, undefined, about);
      summary.added += applied.added;
      summary.replaced += applied.replaced;
      summary.snapshot = applied.snapshot ?? summary.snapshot;
      base = await reopen(dir, base);
      await markDone(dir, progress, unit.id);
    });
    return commits;
  };

  const pending = units.filter((u) => {
    if (!done.has(u.id)) return true;
    summary.resumed++;
    finished += u.chunks.length;
    return false;
  });
  const jobs = pending.flatMap((unit) => {
    const staging = new Staging();
    let left = unit.chunks.length;
    return unit.chunks.map((chunk) => async () => {
      const records = await chunk.fetch(client);
      summary.chunks++;
      summary.records += records.length;
      const reader = new WideReader({ reservoirs: new Set(base!.manifest.reservoirs.names), stations: new Set(base!.manifest.stations.names) });
      records.forEach((record, i) => {
        const reason = reader.stage(staging, Object.entries(record));
        if (reason === undefined) return;
        summary.rejected++;
        if (summary.problems.length < 1000) summary.problems.push({ file: chunk.what, line: i + 1, reason });
      });
      tick(chunk.what);
      if (--left === 0) await commit(unit, staging);
    });
  });
  try {
    await runPool(jobs, options.concurrency ?? 4, options.signal, (job) => job());
  } finally {
    await commits.catch(() => {}); // a commit under way finishes, so that its unit is recorded
    await base?.close(); // its lease: a bucket's would otherwise hold the replaced snapshot until it expires
  }
  await commits;
  progress.complete = true;
  await dir.replace(PROGRESS_FILE, `${JSON.stringify(progress)}\n`);
  return summary;
}

/** What the server holds: its names, its datasets, and each dataset's first and last day (sorted), from the /info lists. */
async function serverHoldings(client: EvapClient): Promise<{ reservoirs: string[]; stations: string[]; datasets: string[]; starts: string[]; ends: string[] }> {
  const [reservoirs, stations, datasets] = await Promise.all([client.listReservoirNames(), client.listStationNames(), client.listDatasets()]);
  const ranges = await Promise.all(
    datasets.map(async (d) => {
      const [first] = await client.listVariables(d);
      return first ? client.listDates(d, first.api_name) : [];
    }),
  );
  const starts = ranges
    .flat()
    .map((r) => r.start_date)
    .sort();
  const ends = ranges
    .flat()
    .map((r) => r.end_date)
    .sort();
  return { reservoirs, stations, datasets, starts, ends };
}

/** The units to copy: a year of every reservoir (one request per reservoir), then stations in groups. */
async function planUnits(client: EvapClient, since: string | null, stationsPerUnit: number): Promise<Unit[]> {
  const { reservoirs, stations, datasets, starts, ends } = await serverHoldings(client);
  const units: Unit[] = [];
  if (reservoirs.length > 0 && starts.length > 0) {
    const from = parseDay(since && since > starts[0]! ? since : starts[0]!, 'start_date');
    const to = parseDay(ends[ends.length - 1]!, 'end_date');
    for (let year = yearOfDay(from); year <= yearOfDay(to); year++) {
      const start = formatDay(Math.max(from, firstDayOfYear(year)));
      const end = formatDay(Math.min(to, firstDayOfYear(year + 1) - 1));
      units.push({
        id: `reservoirs/${year}`,
        chunks: reservoirs.map((name) => ({
          what: `${name} ${year}`,
          fetch: (c) => withFlags(c, reservoirFlags, (alsoReturn) => c.reservoirTimeseries({ names: [name], datasets, start, end, alsoReturn })),
        })),
      });
    }
  }
  return [...units, ...stationUnits(stations, stationsPerUnit, 'stations', (_, first) => (since && since > first ? since : first))];
}

/** Stations in groups of `perUnit`, each asked from `startOf(name, its first day on the server)` to its last day there. */
function stationUnits(stations: readonly string[], perUnit: number, id: string, startOf: (name: string, first: string) => string | undefined): Unit[] {
  const units: Unit[] = [];
  for (let i = 0; i < stations.length; i += perUnit) {
    const group = stations.slice(i, i + perUnit);
    units.push({
      id: `${id}/${group.join('|')}`,
      chunks: group.map((name) => ({
        what: name,
        fetch: async (c) => {
          const [range] = await c.listStationDates([name]);
          const start = range && startOf(name, range.start_date);
          if (!range || start === undefined || start > range.end_date) return [];
          return withFlags(c, stationFlags, (alsoReturn) => c.stationTimeseries({ names: [name], start, end: range.end_date, alsoReturn }));
        },
      })),
    });
  }
  return units;
}

// the day flags a copy asks for and keeps (issue 13)
const reservoirFlags = ['qflag', 'status'];
const stationFlags = ['status'];
const UPDATE = 'update'; // the progress file's `since` of an --update run
const refusedBy = new WeakMap<EvapClient, Set<string>>(); // flags a server refused (422 on also_return): asked no more

/** Asks with the day flags; a server that refuses one of them (one not speaking issue 13) is asked without it. */
async function withFlags(client: EvapClient, flags: readonly string[], ask: (alsoReturn: string[]) => Promise<WireRecord[]>): Promise<WireRecord[]> {
  let refused = refusedBy.get(client);
  if (!refused) refusedBy.set(client, (refused = new Set()));
  for (;;) {
    const asked = flags.filter((f) => !refused.has(f));
    try {
      return await ask(asked);
    } catch (error) {
      const flag = asked[asked.length - 1]; // status is asked last: it goes first
      if (!(error instanceof InvalidParameterError) || error.parameter !== 'also_return' || flag === undefined) throw error;
      refused.add(flag);
    }
  }
}

/**
 * The units of an --update: one request per reservoir, from its first day that is not Final in the copy (or the day
 * after its last) to the server's last day, then stations likewise; names with nothing newer cost no request.
 */
async function planUpdateUnits(client: EvapClient, dir: Storage, stationsPerUnit: number): Promise<Unit[]> {
  const { reservoirs, stations, datasets, starts, ends } = await serverHoldings(client);
  const copy = await openStore(dir); // the copy's statuses are asked as any reader asks them
  const plan = await planUpdate(copy, reservoirs, stations).finally(() => copy.close());
  const units: Unit[] = [];
  const chunks = reservoirs.flatMap((name) => {
    const start = plan.reservoirs.get(name) ?? starts[0];
    const end = ends[ends.length - 1];
    if (start === undefined || end === undefined || start > end) return [];
    return [
      {
        what: `${name} ${start}..${end}`,
        fetch: (c: EvapClient) => withFlags(c, reservoirFlags, (alsoReturn) => c.reservoirTimeseries({ names: [name], datasets, start, end, alsoReturn })),
      },
    ];
  });
  if (chunks.length > 0) units.push({ id: 'update/reservoirs', chunks });
  return [...units, ...stationUnits(stations, stationsPerUnit, 'update/stations', (name, first) => plan.stations.get(name) ?? first)];
}

/** The units of an update from /changes: the reservoirs' requests committed together, then the stations'. */
function changedUnits(reservoirs: readonly ChangedRequest[], stations: readonly ChangedRequest[]): Unit[] {
  const what = ({ names, datasets, start, end }: ChangedRequest) =>
    `${names[0]}${names.length > 1 ? ` and ${names.length - 1} more` : ''} ${datasets.join(',')} ${start}..${end}`;
  const units: Unit[] = [];
  if (reservoirs.length > 0) {
    units.push({
      id: 'changes/reservoirs',
      chunks: reservoirs.map((r) => ({
        what: what(r),
        fetch: (c: EvapClient) => withFlags(c, reservoirFlags, (alsoReturn) => c.reservoirTimeseries({ ...r, alsoReturn })),
      })),
    });
  }
  if (stations.length > 0) {
    units.push({
      id: 'changes/stations',
      chunks: stations.map((r) => ({
        what: what(r),
        fetch: (c: EvapClient) => withFlags(c, stationFlags, (alsoReturn) => c.stationTimeseries({ names: r.names, start: r.start, end: r.end, alsoReturn })),
      })),
    });
  }
  return units;
}

/** Every metadata row of the server, asked for in batches of names (a URL has a length limit). */
async function fetchMetadata(client: EvapClient): Promise<StagedMetadata> {
  const metadata: StagedMetadata = { reservoirs: new Map(), stations: new Map() };
  const [reservoirs, stations] = await Promise.all([client.listReservoirNames(), client.listStationNames()]);
  for (const [names, key, into] of [
    [reservoirs, 'RES_NAME', metadata.reservoirs],
    [stations, 'STA_NAME', metadata.stations],
  ] as const) {
    for (let i = 0; i < names.length; i += 100) {
      const batch = names.slice(i, i + 100);
      const rows = key === 'RES_NAME' ? await client.reservoirMetadata(batch) : await client.stationMetadata(batch);
      for (const record of rows) {
        const row = metadataRow(Object.entries(record), key, false);
        if (typeof row === 'string')
          throw new Error(`metadata from ${pathOf(key === 'RES_NAME' ? 'reservoirMetadata' : 'stationMetadata')} is unusable: ${row}`);
        into.set(row[key] as string, row);
      }
    }
  }
  return metadata;
}

async function readProgress(dir: Storage, from: string, since: string | null): Promise<Progress> {
  const fresh: Progress = { format: 'evap-mirror-progress', from, since, done: [], complete: false };
  const text = (await dir.readText(PROGRESS_FILE))?.text;
  if (text === undefined) return fresh;
  try {
    const found = JSON.parse(text) as Progress;
    if (found.format !== fresh.format || found.from !== from || !Array.isArray(found.done)) return fresh;
    // resume only the same copy that was interrupted
    if (found.since === since && !found.complete) return found;
    const pulled = found.complete ? found.snapshot : found.pulled; // an interrupted run of another kind: the last complete one's
    return typeof pulled === 'number' ? { ...fresh, pulled } : fresh;
  } catch {
    // an unreadable progress file only costs a fresh start (and --update then compares statuses)
  }
  return fresh;
}

async function markDone(dir: Storage, progress: Progress, unit: string): Promise<void> {
  progress.done.push(unit);
  await dir.replace(PROGRESS_FILE, `${JSON.stringify(progress)}\n`);
}

// the snapshot a commit published, for the next one to build on
async function reopen(dir: Storage, base: Readback | undefined): Promise<Readback | undefined> {
  await base?.close();
  return openReadback(dir);
}
