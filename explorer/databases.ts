// The database picker: on a server serving several databases (GET /databases), a list in the header; choosing one opens
// the page at its path (/twdb/), where every request of the page goes under that prefix (api.ts).
import { apiFetch, databasePrefix } from './api.js';

interface DatabaseEntry {
  name: string;
  url: string; // /twdb
  root: boolean; // the one also served at /
  title: string;
  synthetic: boolean;
  coverage: { reservoirs: number; stations: number };
  period: { first: string | null; last: string | null };
}

/** The entry the page shows: the one named by its path, or the root one at `/`. */
export function currentDatabase<T extends { name: string; root: boolean }>(list: readonly T[], prefix: string): T | undefined {
  return prefix === '' ? list.find((d) => d.root) : list.find((d) => `/${d.name}` === prefix);
}

/** Fills and shows the picker when the server lists more than one database; a server without /databases shows none. */
export async function showDatabases(label: HTMLElement, select: HTMLSelectElement): Promise<void> {
  const response = await apiFetch('/databases', {}, true).catch(() => undefined);
  if (!response) return;
  const list = (await response.json()) as DatabaseEntry[];
  if (!Array.isArray(list) || list.length < 2) return;
  const current = currentDatabase(list, databasePrefix);
  select.replaceChildren(
    ...list.map((d) => {
      const option = document.createElement('option');
      option.value = `${d.url}/`;
      const period = d.period.first ? `, ${d.period.first.slice(0, 4)}-${d.period.last?.slice(0, 4)}` : '';
      option.textContent = `${d.name} (${d.coverage.reservoirs} reservoirs${period}${d.synthetic ? ', synthetic' : ''})`;
      option.title = d.title;
      option.selected = d === current;
      return option;
    }),
  );
  select.onchange = () => location.assign(select.value);
  label.hidden = false;
}
