// mirror --update against an evap server: ask GET /changes since the snapshot the copy was last pulled at, and fetch
// exactly the names, datasets and days it names. The public service has no /changes (404): the update then compares
// statuses instead (mirror-update.ts).
import { type DatasetName, datasetNames } from '../catalogue.js';
import { InvalidParameterError, NotFoundError } from '../errors.js';
import type { StoreChanges } from '../tables/changes.js';
import { datasetTable, RESERVOIR_METADATA_TABLE, STATION_METADATA_TABLE, STATION_TABLE } from '../tables/fields.js';
import type { EvapClient } from './client.js';

/** A time after every snapshot: the changes since it are none, and the answer still names the current snapshot. */
const END_OF_TIME = '9999-12-31';

/** What the source says of its snapshots: the changes since the copy's (when it could say), its current snapshot (an evap server). */
export interface SourceSnapshot {
  current: number | undefined; // the source's current snapshot; undefined: it has no /changes
  changes: StoreChanges | undefined; // since the copy's snapshot; undefined: compare statuses instead
  why: string; // which mode, and why, in words
}

/** Asks the source for its changes since `pulled` (the snapshot the copy was last pulled at), or only for its current snapshot. */
export async function askSource(client: EvapClient, pulled: number | undefined): Promise<SourceSnapshot> {
  try {
    if (pulled === undefined) {
      const { current } = await client.changes({ since: END_OF_TIME });
      return { current, changes: undefined, why: 'the copy records no snapshot of the server (a copy made before, or by an interrupted run)' };
    }
    const changes = await client.changes({ since: String(pulled) });
    return { current: changes.current, changes, why: `GET /changes since snapshot ${pulled}` };
  } catch (error) {
    if (error instanceof NotFoundError) return { current: undefined, changes: undefined, why: 'the server has no /changes (the public service)' };
    if (error instanceof InvalidParameterError && error.parameter === 'since' && pulled !== undefined) {
      const { current } = await client.changes({ since: END_OF_TIME }); // e.g. the snapshot was vacuumed away
      return { current, changes: undefined, why: `the server cannot say what changed since snapshot ${pulled}: ${error.message}` };
    }
    throw error;
  }
}

/** A request of the update: names whose same datasets (none: stations) changed over the same days, and those days. */
export interface ChangedRequest {
  names: string[];
  datasets: DatasetName[];
  start: string;
  end: string;
}

/** Names asked in one request: a revision of every water body's last days is a request per this many, not per name. */
const NAMES_PER_REQUEST = 100;

/**
 * The requests an update makes from the changes: the datasets a name changed over the same span asked together, and
 * the names with the same datasets and span together, up to NAMES_PER_REQUEST a request; stations likewise.
 */
export function planChanges(changes: StoreChanges): { metadata: boolean; reservoirs: ChangedRequest[]; stations: ChangedRequest[] } {
  const datasetOf = new Map<string, DatasetName>(datasetNames.map((d) => [datasetTable(d), d]));
  const spans = new Map<string, { name: string; datasets: DatasetName[]; start: string; end: string }>(); // by name and span
  const stations: ChangedRequest[] = [];
  let metadata = false;
  for (const c of changes.changes) {
    if (c.table === RESERVOIR_METADATA_TABLE || c.table === STATION_METADATA_TABLE) metadata = true;
    if (c.name === null || c.start_date === null || c.end_date === null) continue; // the forecasts: a mirror does not copy them
    const dataset = datasetOf.get(c.table);
    if (c.table === STATION_TABLE) stations.push({ names: [c.name], datasets: [], start: c.start_date, end: c.end_date });
    if (dataset === undefined) continue;
    const key = `${c.name}\t${c.start_date}\t${c.end_date}`;
    const span = spans.get(key) ?? { name: c.name, datasets: [], start: c.start_date, end: c.end_date };
    span.datasets.push(dataset);
    spans.set(key, span);
  }
  const together = (requests: Iterable<ChangedRequest>): ChangedRequest[] => {
    const groups = new Map<string, ChangedRequest[]>();
    for (const r of requests) {
      const key = `${r.datasets.join(',')}\t${r.start}\t${r.end}`;
      const group = groups.get(key) ?? [];
      const last = group.at(-1);
      if (last && last.names.length < NAMES_PER_REQUEST) last.names.push(...r.names);
      else group.push({ ...r, names: [...r.names] });
      groups.set(key, group);
    }
    return [...groups.values()].flat();
  };
  const reservoirs = [...spans.values()].map(({ name, ...rest }) => ({ names: [name], ...rest }));
  return { metadata, reservoirs: together(reservoirs), stations: together(stations) };
}
