// mirror --update: what a copy must fetch again. Days start Early, become Provisional, end Final (statuses are
// monotone in time), so a name's non-Final days are a run at its end: fetch from the first of them (or from the day
// after its last one, when all are Final) to the server's end.
import { formatDay, parseDay } from '../dates.js';
import type { EvapStore } from '../open/store.js';

/** Per name, the first day to fetch again (YYYY-MM-DD); names the copy lacks are fetched whole (undefined). */
interface UpdatePlan {
  reservoirs: Map<string, string | undefined>;
  stations: Map<string, string | undefined>;
}

/** Reads the copy's statuses: the first non-Final day of each name (a day without a status counts as not Final). */
export async function planUpdate(copy: EvapStore, reservoirs: readonly string[], stations: readonly string[]): Promise<UpdatePlan> {
  const plan: UpdatePlan = { reservoirs: new Map(), stations: new Map() };
  const held = new Set(copy.manifest.reservoirs.names);
  const [dataset] = copy.listDatasets();
  const [variable] = dataset ? copy.listVariables(dataset) : [];
  for (const name of reservoirs) {
    if (!held.has(name) || !dataset || !variable) {
      plan.reservoirs.set(name, undefined);
      continue;
    }
    const rows = await copy.reservoirTimeseries({
      names: [name],
      datasets: [dataset],
      variables: [variable.api_name],
      start: '1900-01-01',
      end: '2200-12-31',
      alsoReturn: ['status'],
    });
    plan.reservoirs.set(name, firstToFetch(rows));
  }
  for (const name of stations) {
    if (!copy.manifest.stations.partitions[name]) {
      plan.stations.set(name, undefined);
      continue;
    }
    const rows = await copy.stationTimeseries({
      names: [name],
      variables: copy
        .listStationVariables([name])
        .map((v) => v.api_name)
        .slice(0, 1),
      start: '1900-01-01',
      end: '2200-12-31',
      alsoReturn: ['status'],
    });
    plan.stations.set(name, firstToFetch(rows));
  }
  return plan;
}

// the first non-Final day, else the day after the last one
function firstToFetch(rows: readonly Record<string, unknown>[]): string | undefined {
  if (rows.length === 0) return undefined;
  const open = rows.find((r) => r.status !== 'Final');
  if (open) return open.start_date as string;
  return formatDay(parseDay(rows[rows.length - 1]!.start_date as string, 'start_date') + 1);
}
