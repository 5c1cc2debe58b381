// The explorer page: asks for the key, loads every name and its metadata through the documented API, and wires the
// map, search, colouring, shapefile filter and the selected water body's chart.
import 'uplot/dist/uPlot.min.css';
import './style.css';
import type { Topology } from 'topojson-specification';
import { showAbout } from './about.js';
import { ApiError, apiFetch, apiUrl, changeKey, currentKey, databasePrefix, getJson } from './api.js';
import { Bodies, type Kind, type Metadata } from './bodies.js';
import { readCapabilities } from './capabilities.js';
import { Colouring } from './colouring.js';
import { showDatabases } from './databases.js';
import { Detail } from './detail.js';
import { ForecastPanel } from './forecast.js';
import { MapView } from './map.js';
import { setupSearch } from './search.js';
import { filterByShapefile, setupDrop } from './shapefile.js';
import { WhatIfPanel } from './what-if.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $('map-status');
const bodies = new Bodies();
const map = new MapView($<HTMLCanvasElement>('map'), bodies);

// names in groups within the server's default bounds: 500 names a request, 16 KiB of request line and headers
function chunks(names: string[], maxNames = 500, maxChars = 12_000): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const name of names) {
    const cost = encodeURIComponent(name).length + 1;
    if (current.length >= maxNames || (current.length > 0 && chars + cost > maxChars)) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(name);
    chars += cost;
  }
  if (current.length) out.push(current);
  return out;
}

// metadata of every name, six requests at a time (a browser's connections per host), drawn as it arrives
async function loadMetadata(kind: Kind, names: string[], progress: () => void): Promise<void> {
  const path = kind === 'reservoir' ? '/metadata/reservoirs' : '/metadata/stations';
  const param = kind === 'reservoir' ? 'RES_NAMES' : 'STA_NAMES';
  if (names.length === 0) return; // a database without stations (the Texas-like demo): nothing to ask
  const queue = chunks(names);
  // a server with a lower --max-names (422) or header limit (431) gets the group in halves
  const fetchGroup = async (group: string[]): Promise<void> => {
    try {
      bodies.add(kind, await getJson<Metadata[]>(apiUrl(path, { [param]: group.join(',') })));
    } catch (error) {
      if (!(error instanceof ApiError && (error.status === 422 || error.status === 431) && group.length > 1)) throw error;
      await fetchGroup(group.slice(0, group.length >> 1));
      await fetchGroup(group.slice(group.length >> 1));
    }
  };
  const worker = async () => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      await fetchGroup(group);
      progress();
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
}

// every name with its metadata in one answer (RFC 7946 points, the metadata attributes as properties); undefined when
// the answer lacks the name property, so the page falls back to the metadata paths
async function loadGeojson(kind: Kind): Promise<Metadata[] | undefined> {
  const listing = kind === 'reservoir' ? '/info/list_RES_NAMES' : '/info/list_STA_NAMES';
  const nameKey = kind === 'reservoir' ? 'RES_NAME' : 'STA_NAME';
  const answer = (await (await apiFetch(`${listing}?output_format=geojson`, { method: 'POST' })).json()) as {
    features?: { geometry?: { coordinates?: number[] } | null; properties?: Metadata | null }[];
  };
  const rows: Metadata[] = (answer.features ?? []).map((f) => ({
    ...f.properties,
    LON: f.geometry?.coordinates?.[0] ?? null,
    LAT: f.geometry?.coordinates?.[1] ?? null,
  }));
  return rows.every((r) => typeof r[nameKey] === 'string') ? rows : undefined;
}

function describe(i: number): string {
  const m = bodies.metadata[i]!;
  if (bodies.kinds[i] === 'station') return `${bodies.names[i]} · station${m.STATION_TYPE ? ` (${m.STATION_TYPE})` : ''}`;
  const area = typeof m.Shape_Area === 'number' ? ` · ${(m.Shape_Area / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })} km²` : '';
  return `${bodies.names[i]}${m.STATE ? ` (${m.STATE})` : ''}${area}`;
}

async function start(): Promise<void> {
  const began = performance.now();
  $<HTMLAnchorElement>('docs-link').href = `${databasePrefix}/docs`;
  const openapiAnswer = fetch(`${databasePrefix}/openapi.json`);
  const openapi = openapiAnswer.then((r) => r.json() as Promise<{ paths?: Record<string, unknown> }>);
  const databases = openapiAnswer.then((r) => Number(r.headers.get('x-evap-databases') ?? '1')); // a server with one asks no /databases
  const basemap = fetch('/explorer/states.json').then((r) => r.json() as Promise<Topology>);
  basemap.then(
    (t) => map.setBasemap(t),
    () => (status.textContent = 'the state outlines could not be loaded'),
  );
  $('change-key').addEventListener('click', () => void changeKey().then(() => location.reload()));

  await currentKey();
  if ((await databases.catch(() => 1)) > 1) void showDatabases($('database-label'), $<HTMLSelectElement>('database')).catch(() => {}); // the page works without it
  const datasetList = getJson<string[]>('/info/list_datasets'); // beside the loads: a refused key asks once for all of them
  const capabilities = readCapabilities(await openapi);
  void showAbout(Object.keys((await openapi).paths ?? {}), $('data-banner'), $('about')).catch(() => {}); // the page works without it
  let total = 0;
  let shown = 0;
  const progress = () => {
    if (performance.now() - shown < 1000) return; // a redraw per arriving group costs more than the loading (44,000: 13 s instead of 3)
    shown = performance.now();
    status.textContent = `loading metadata: ${bodies.size.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
    map.update();
  };
  const load = async (kind: Kind): Promise<number> => {
    if (capabilities.geojson[kind]) {
      const rows = await loadGeojson(kind);
      if (rows) {
        bodies.add(kind, rows);
        return rows.length;
      }
    }
    const listing = kind === 'reservoir' ? '/info/list_RES_NAMES' : '/info/list_STA_NAMES';
    const answer = (await (await apiFetch(listing, { method: 'POST' })).json()) as Record<string, string[]>;
    const names = answer[kind === 'reservoir' ? 'RES_NAMES' : 'STA_NAMES'] ?? [];
    total += names.length;
    await loadMetadata(kind, names, progress);
    return names.length;
  };
  const [reservoirs, stations, datasets] = await Promise.all([load('reservoir'), load('station'), datasetList]);
  map.update();
  status.textContent = `${reservoirs.toLocaleString('en-US')} reservoirs (circles, sized by surface area) and ${stations.toLocaleString('en-US')} stations (squares)`;
  document.body.dataset.loadedMs = String(Math.round(performance.now() - began));

  const detail = new Detail(bodies, capabilities, datasets);
  const units = () => (document.querySelector('input[name=units]:checked') as HTMLInputElement).value;
  const colouring = new Colouring(bodies, map, units);
  const forecast = capabilities.forecast ? new ForecastPanel(datasets, units) : undefined;
  const whatIf = capabilities.model ? new WhatIfPanel() : undefined;
  for (const input of document.querySelectorAll('input[name=units]'))
    input.addEventListener('change', () => {
      void colouring.load();
      void forecast?.load();
    });
  void colouring.fill(datasets, capabilities.forecast);

  const select = (i: number) => {
    map.reveal(i);
    history.replaceState(null, '', `#${bodies.kinds[i]}=${encodeURIComponent(bodies.names[i]!)}`);
    void detail.select(i);
    const reservoir = bodies.kinds[i] === 'reservoir' ? bodies.names[i] : undefined;
    forecast?.show(reservoir);
    whatIf?.show(reservoir);
  };
  detail.onMarked = (marked) => {
    map.marked = marked;
    map.drawOverlay();
  };
  detail.onSelect = select;
  map.onPick = select;
  const tooltip = $('tooltip');
  map.onHover = (i, x, y) => {
    tooltip.hidden = i < 0;
    if (i < 0) return;
    tooltip.textContent = describe(i);
    tooltip.style.left = `${Math.min(x + 12, map.base.clientWidth - tooltip.offsetWidth - 4)}px`;
    tooltip.style.top = `${y + 12}px`;
  };
  setupSearch($('search'), $('search-list'), bodies, select);
  setupDrop($('map').parentElement!, $('drop-hint'), $('shapefile-input'), $('shapefile-button'), (files) => void applyFilter(files));
  $('shapefile-clear').addEventListener('click', () => {
    map.style = { ...map.style, inside: undefined };
    map.home();
    $('filter-result').hidden = true;
    $('shapefile-clear').hidden = true;
    map.redraw();
  });

  async function applyFilter(files: File[]): Promise<void> {
    const box = $('filter-result');
    box.hidden = false;
    box.classList.remove('error');
    box.textContent = `filtering by ${files.map((f) => f.name).join(', ')}…`;
    const result = await filterByShapefile(files);
    if ('error' in result) {
      box.classList.add('error');
      box.textContent = `Shapefile refused: ${result.error}`;
      return;
    }
    const inside = new Uint8Array(bodies.size);
    const found: number[] = [];
    for (const [kind, names] of [
      ['reservoir', result.reservoirs],
      ['station', result.stations],
    ] as const) {
      for (const name of names) {
        const i = bodies.find(kind, name);
        if (i >= 0) found.push(i);
        if (i >= 0) inside[i] = 1;
      }
    }
    map.style = { ...map.style, inside };
    if (found.length) map.fitTo(found);
    map.redraw();
    $('shapefile-clear').hidden = false;
    box.replaceChildren();
    const heading = document.createElement('p');
    heading.textContent = `Inside ${result.files}: ${result.reservoirs.length} reservoirs, ${result.stations.length} stations`;
    const list = document.createElement('ul');
    list.className = 'inside-list';
    for (const [kind, names] of [
      ['reservoir', result.reservoirs],
      ['station', result.stations],
    ] as const) {
      for (const name of names) {
        const li = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'link';
        button.textContent = name;
        button.addEventListener('click', () => select(bodies.find(kind, name)));
        li.append(button);
        list.append(li);
      }
    }
    box.append(heading, list);
  }

  const wanted = /^#(reservoir|station)=(.+)$/.exec(location.hash);
  const chosen = wanted ? bodies.find(wanted[1] as Kind, decodeURIComponent(wanted[2]!)) : -1;
  if (chosen >= 0) select(chosen);
  document.body.dataset.ready = 'true';
}

start().catch((error: unknown) => {
  status.classList.add('error');
  status.textContent = error instanceof ApiError ? `${error.status}: ${error.detail}` : `the explorer failed to start: ${String(error)}`;
});
