// The selected water body: its metadata, the comparison list, the pickers (filled from /info/*) and the chart request.
import { ApiError, apiUrl, getJson } from './api.js';
import type { Bodies, Kind } from './bodies.js';
import { type Capabilities, rangePath } from './capabilities.js';
import { Chart, type WireRecord } from './chart.js';
import { readNormals } from './normals.js';
import { renderRequest } from './request.js';

const MAX_COMPARED = 6;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

interface VariableInfo {
  api_name: string;
  description: string;
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export class Detail {
  private selected = -1;
  private pinned: number[] = []; // compared with the selected one (same kind only)
  private kind: Kind | undefined;
  private checked = new Map<string, Set<string>>(); // dataset (or 'stations') -> variables ticked
  private span = { start: '', end: '' }; // the data's first and last date for the current picks
  private sequence = 0;
  readonly chart = new Chart($('chart'));
  onMarked: (marked: number[]) => void = () => {};
  onSelect: (i: number) => void = () => {};

  constructor(
    private readonly bodies: Bodies,
    private readonly capabilities: Capabilities,
    datasets: string[],
  ) {
    const form = $<HTMLFormElement>('chart-controls');
    form.addEventListener('submit', (e) => e.preventDefault());
    $('dataset').addEventListener('change', () => void this.fillVariables().then(() => this.load()));
    $('variables').addEventListener('change', () => void this.load());
    for (const input of form.querySelectorAll('input[name=units]')) input.addEventListener('change', () => void this.load());
    $('interval').addEventListener('change', () => void this.load());
    $('normals').addEventListener('change', () => void this.load());
    for (const id of ['start', 'end']) $(id).addEventListener('change', () => void this.load());
    for (const button of form.querySelectorAll<HTMLButtonElement>('[data-quick]')) {
      button.addEventListener('click', () => {
        const quick = button.dataset.quick!;
        const end = this.span.end;
        $<HTMLInputElement>('end').value = end;
        $<HTMLInputElement>('start').value = quick === 'all' ? this.span.start : maxDay(this.span.start, addDays(end, 1 - Number(quick)));
        void this.load();
      });
    }
    const datasetSelect = $<HTMLSelectElement>('dataset');
    for (const d of datasets) datasetSelect.append(new Option(d, d, false, d === 'nete-volume-calcs'));
  }

  /** The names the chart shows: the selected one first, then the pinned ones of the same kind. */
  private charted(): number[] {
    if (this.selected < 0) return [];
    return [this.selected, ...this.pinned.filter((i) => i !== this.selected && this.bodies.kinds[i] === this.kind)].slice(0, MAX_COMPARED);
  }

  /** Selects body i: metadata, pickers for its kind, chart. */
  async select(i: number): Promise<void> {
    this.selected = i;
    const kind = this.bodies.kinds[i]!;
    const kindChanged = kind !== this.kind;
    this.kind = kind;
    this.renderMetadata();
    this.renderCompare();
    this.onMarked(this.charted());
    $('chart-controls').hidden = false;
    $('dataset-label').hidden = kind === 'station';
    const intervals = this.capabilities.intervals[kind];
    const intervalSelect = $<HTMLSelectElement>('interval');
    if (kindChanged) intervalSelect.replaceChildren(...intervals.map((v) => new Option(v, v)));
    $('interval-label').hidden = intervals.length < 2;
    $('normals-label').hidden = !this.capabilities.normals[kind];
    try {
      if (kindChanged || kind === 'station') await this.fillVariables(); // a station's variables depend on the station
      await this.load();
    } catch (error) {
      this.fail(error);
    }
  }

  private renderMetadata(): void {
    const i = this.selected;
    const box = $('selected');
    box.replaceChildren();
    const title = document.createElement('h2');
    title.textContent = this.bodies.names[i]!;
    const kind = document.createElement('span');
    kind.className = `kind ${this.kind}`;
    kind.textContent = this.kind!;
    title.append(' ', kind);
    const table = document.createElement('dl');
    table.className = 'metadata';
    for (const [key, value] of Object.entries(this.bodies.metadata[i]!)) {
      if (key === 'RES_NAME' && this.kind === 'reservoir') continue;
      if (key === 'STA_NAME') continue;
      const dt = document.createElement('dt');
      dt.textContent = key;
      const dd = document.createElement('dd');
      const reservoir = key === 'RES_NAME' ? this.bodies.find('reservoir', String(value)) : -1;
      if (reservoir >= 0) {
        const link = document.createElement('button');
        link.type = 'button';
        link.className = 'link';
        link.textContent = String(value);
        link.addEventListener('click', () => this.onSelect(reservoir));
        dd.append(link);
      } else dd.textContent = typeof value === 'number' ? value.toLocaleString('en-US', { maximumFractionDigits: 4 }) : String(value ?? '—');
      table.append(dt, dd);
    }
    const pin = document.createElement('button');
    pin.type = 'button';
    pin.id = 'pin';
    const pinned = this.pinned.includes(i);
    pin.textContent = pinned ? 'Pinned for comparison' : 'Pin to compare';
    pin.disabled = pinned || this.charted().length >= MAX_COMPARED;
    pin.addEventListener('click', () => {
      this.pinned = [...this.pinned.filter((p) => this.bodies.kinds[p] === this.kind), i];
      this.renderMetadata();
      this.renderCompare();
    });
    box.append(title, table, pin);
  }

  private renderCompare(): void {
    const box = $('compare');
    const others = this.pinned.filter((p) => p !== this.selected && this.bodies.kinds[p] === this.kind);
    box.hidden = others.length === 0;
    box.replaceChildren();
    if (others.length === 0) return;
    const label = document.createElement('span');
    label.textContent = `Compared (up to ${MAX_COMPARED}):`;
    box.append(label);
    for (const p of others) {
      const chip = document.createElement('button');
      chip.type = 'button';
      chip.className = 'chip';
      chip.textContent = `${this.bodies.names[p]} ×`;
      chip.setAttribute('aria-label', `Stop comparing ${this.bodies.names[p]}`);
      chip.addEventListener('click', () => {
        this.pinned = this.pinned.filter((q) => q !== p);
        this.renderMetadata();
        this.renderCompare();
        this.onMarked(this.charted());
        void this.load();
      });
      box.append(chip);
    }
  }

  // the variable checkboxes: a dataset's variables, or those the charted stations measure
  private async fillVariables(): Promise<void> {
    const station = this.kind === 'station';
    const group = station ? 'stations' : $<HTMLSelectElement>('dataset').value;
    const url = station
      ? apiUrl('/info/list_stations_variables', {
          STA_NAMES: this.charted()
            .map((i) => this.bodies.names[i]!)
            .join(','),
        })
      : apiUrl('/info/list_variables', { dataset: group });
    const variables = await getJson<VariableInfo[]>(url);
    const previous = this.checked.get(group);
    const names = variables.map((v) => v.api_name);
    const ticked = new Set([...(previous ?? [])].filter((v) => names.includes(v)));
    if (ticked.size === 0) ticked.add(names.includes('NetE') ? 'NetE' : names[0]!);
    this.checked.set(group, ticked);
    const fieldset = $('variables');
    const legend = document.createElement('legend');
    legend.textContent = 'Variables';
    fieldset.replaceChildren(
      legend,
      ...variables.map((v) => {
        const label = document.createElement('label');
        label.title = v.description;
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.value = v.api_name;
        box.checked = ticked.has(v.api_name);
        box.addEventListener('change', () => {
          if (box.checked) ticked.add(v.api_name);
          else ticked.delete(v.api_name);
        });
        label.append(box, ` ${v.api_name}`);
        return label;
      }),
    );
    this.span = { start: '', end: '' }; // dates of the new picks are read again
  }

  private variables(): string[] {
    const group = this.kind === 'station' ? 'stations' : $<HTMLSelectElement>('dataset').value;
    return [...(this.checked.get(group) ?? [])];
  }

  // the data's date span for the picks, and a default range: its last year
  private async fillDates(names: string[], variables: string[]): Promise<void> {
    if (this.span.end) return;
    const url =
      this.kind === 'station'
        ? apiUrl('/info/list_stations_dates', { STA_NAMES: names.join(',') })
        : apiUrl('/info/list_dates', { dataset: $<HTMLSelectElement>('dataset').value, variable: variables[0] });
    const [span] = await getJson<{ start_date: string; end_date: string }[]>(url);
    if (!span) return;
    this.span = { start: span.start_date, end: span.end_date };
    const start = $<HTMLInputElement>('start');
    const end = $<HTMLInputElement>('end');
    for (const input of [start, end]) Object.assign(input, { min: span.start_date, max: span.end_date });
    if (!end.value || end.value > span.end_date || end.value < span.start_date) end.value = span.end_date;
    if (!start.value || start.value < span.start_date || start.value > end.value) start.value = maxDay(span.start_date, addDays(end.value, -364));
  }

  /** Requests and draws the chart for the current picks. */
  async load(): Promise<void> {
    const indices = this.charted();
    if (indices.length === 0) return;
    const sequence = ++this.sequence;
    const names = indices.map((i) => this.bodies.names[i]!);
    const variables = this.variables();
    const status = $('chart-status');
    status.classList.remove('error');
    if (variables.length === 0) {
      this.chart.clear();
      status.textContent = 'Tick at least one variable.';
      return;
    }
    try {
      await this.fillDates(names, variables);
      const kind = this.kind!;
      const units = ($('chart-controls').querySelector('input[name=units]:checked') as HTMLInputElement).value;
      const interval = $<HTMLSelectElement>('interval').value || 'daily';
      const params = {
        [kind === 'station' ? 'STA_NAMES' : 'RES_NAMES']: names.join(','),
        datasets: kind === 'station' ? undefined : $<HTMLSelectElement>('dataset').value,
        variables: variables.join(','),
        units,
        start_date: $<HTMLInputElement>('start').value,
        end_date: $<HTMLInputElement>('end').value,
        output_format: 'json',
      };
      const url = apiUrl(rangePath(kind, interval), params);
      status.textContent = 'loading…';
      const normalsWanted = !$('normals-label').hidden && $<HTMLInputElement>('normals').checked;
      const normalsUrl = apiUrl(`/timeseries/normals/${kind}s`, {
        ...params,
        [kind === 'station' ? 'STA_NAMES' : 'RES_NAMES']: names[0],
        start_date: undefined,
        end_date: undefined,
        period: 'month',
      });
      const [records, normals] = await Promise.all([
        getJson<WireRecord[]>(url),
        normalsWanted ? getJson<WireRecord[]>(normalsUrl) : Promise.resolve(undefined),
      ]);
      if (sequence !== this.sequence) return; // a newer request was made meanwhile
      const bands = normals ? readNormals(normals, variables) : undefined;
      const unitLabels = this.chart.show({ records, nameKey: kind === 'station' ? 'STA_NAME' : 'RES_NAME', names, variables, bands });
      const what = `${names.join(', ')}: ${[...unitLabels].map(([v, u]) => `${v} (${u})`).join(', ') || variables.join(', ')}`;
      status.textContent = `${records.length.toLocaleString('en-US')} records, ${this.chart.points.toLocaleString('en-US')} values${normals && bands?.size === 0 ? '; normals answer not understood, no band drawn' : ''}`;
      const file = `evap-${names[0]!.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${params.start_date}-${params.end_date}`;
      renderRequest($('request'), what, url, file);
    } catch (error) {
      if (sequence === this.sequence) this.fail(error);
    }
  }

  private fail(error: unknown): void {
    this.chart.clear();
    const status = $('chart-status');
    status.classList.add('error');
    status.textContent = error instanceof ApiError ? `${error.status}: ${error.detail}` : String(error);
  }
}

function maxDay(a: string, b: string): string {
  return a > b ? a : b;
}
