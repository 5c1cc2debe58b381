// The last day a store holds for some datasets or stations: what `latest` means in a query.
import { parseDay } from '../dates.js';
import type { Manifest } from '../store/manifest.js';

/** The last day any of the datasets holds, or undefined when they hold nothing. */
export function latestReservoirDay(manifest: Manifest, datasets: readonly string[]): number | undefined {
  let last = '';
  for (const d of datasets) for (const p of manifest.datasets[d]?.partitions ?? []) if (p.end > last) last = p.end;
  return last === '' ? undefined : parseDay(last, 'date');
}

/** The last day any of the stations holds, or undefined when they hold nothing. */
export function latestStationDay(manifest: Manifest, names: readonly string[]): number | undefined {
  let last = '';
  for (const n of names) {
    const end = manifest.stations.partitions[n]?.end ?? '';
    if (end > last) last = end;
  }
  return last === '' ? undefined : parseDay(last, 'date');
}

/** The first day any of the datasets holds, or undefined. */
export function firstReservoirDay(manifest: Manifest, datasets: readonly string[]): number | undefined {
  let first: string | undefined;
  for (const d of datasets)
    for (const p of manifest.datasets[d]?.partitions ?? []) if (p.start !== '' && (first === undefined || p.start < first)) first = p.start;
  return first === undefined ? undefined : parseDay(first, 'date');
}

/** The first day any of the stations holds, or undefined. */
export function firstStationDay(manifest: Manifest, names: readonly string[]): number | undefined {
  let first: string | undefined;
  for (const n of names) {
    const start = manifest.stations.partitions[n]?.start;
    if (start && (first === undefined || start < first)) first = start;
  }
  return first === undefined ? undefined : parseDay(first, 'date');
}
