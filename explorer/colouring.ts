// Colouring every reservoir by a variable on one date (the single-date path), with a date slider over the data's span;
// or, where the server forecasts, by the latest forecast's 28-day total (its median).
import { ApiError, apiUrl, getJson } from './api.js';
import type { Bodies } from './bodies.js';
import { keyOf, type WireRecord } from './chart.js';
import { colourScale, renderLegend } from './colour.js';
import { statisticKey } from './forecast-data.js';
import type { MapView } from './map.js';
import { renderRequest } from './request.js';

const FORECAST = 'forecast'; // the group of the forecast totals in the list (no dataset has this name)
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const dayAt = (start: string, n: number) => new Date(Date.parse(`${start}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export class Colouring {
  private start = '';
  private timer = 0;
  private sequence = 0;

  constructor(
    private readonly bodies: Bodies,
    private readonly map: MapView,
    private readonly units: () => string,
  ) {
    $('colour-variable').addEventListener('change', () => void this.choose());
    const slider = $<HTMLInputElement>('colour-date');
    slider.addEventListener('input', () => {
      $('colour-date-label').textContent = dayAt(this.start, Number(slider.value));
      clearTimeout(this.timer);
      this.timer = window.setTimeout(() => void this.load(), 150); // while the slider moves, only the last date is asked
    });
  }

  /** Fills the "Colour by" list: every variable of every dataset, and the forecast totals where the server has them. */
  async fill(datasets: string[], forecast = false): Promise<void> {
    const select = $<HTMLSelectElement>('colour-variable');
    if (forecast) {
      const group = document.createElement('optgroup');
      group.label = 'forecast, next 28 days';
      group.append(
        new Option('E_volume: evaporated volume, 28-day total (median)', `${FORECAST}|E_volume`),
        new Option('E_hs: evaporation, 28-day total (median)', `${FORECAST}|E_hs`),
      );
      select.append(group);
    }
    const lists = await Promise.all(
      datasets.map((d) => getJson<{ api_name: string; description?: string; units_metric?: string }[]>(apiUrl('/info/list_variables', { dataset: d }))),
    );
    datasets.forEach((d, n) => {
      const group = document.createElement('optgroup');
      group.label = d;
      // the code as the API names it, then what it is: "NetE: Net evaporation (mm)"
      const text = (v: { api_name: string; description?: string; units_metric?: string }) =>
        v.description ? `${v.api_name}: ${v.description}${v.units_metric ? ` (${v.units_metric})` : ''}` : v.api_name;
      for (const v of lists[n]!) group.append(new Option(text(v), `${d}|${v.api_name}`));
      select.append(group);
    });
  }

  private async choose(): Promise<void> {
    const value = $<HTMLSelectElement>('colour-variable').value;
    $('colour-date').parentElement!.hidden = !value;
    if (!value) {
      this.map.style = { ...this.map.style, colourOf: undefined };
      $('legend').hidden = true;
      $('map-request').hidden = true;
      this.map.redraw();
      return;
    }
    const [dataset, variable] = value.split('|') as [string, string];
    if (dataset === FORECAST) {
      $('colour-date').parentElement!.hidden = true; // the latest issue: no date to choose
      await this.load();
      return;
    }
    try {
      const [span] = await getJson<{ start_date: string; end_date: string }[]>(apiUrl('/info/list_dates', { dataset, variable }));
      if (!span) return;
      this.start = span.start_date;
      const days = Math.round((Date.parse(span.end_date) - Date.parse(span.start_date)) / 86_400_000);
      const slider = $<HTMLInputElement>('colour-date');
      slider.max = String(days);
      slider.value = String(days);
      $('colour-date-label').textContent = span.end_date;
      await this.load();
    } catch (error) {
      this.fail(error);
    }
  }

  /** Requests every reservoir's value on the slider's date and colours the map. */
  async load(): Promise<void> {
    const value = $<HTMLSelectElement>('colour-variable').value;
    if (!value) return;
    const [dataset, variable] = value.split('|') as [string, string];
    if (dataset === FORECAST) return this.loadForecast(variable);
    const date = dayAt(this.start, Number($<HTMLInputElement>('colour-date').value));
    const url = apiUrl('/timeseries/daily/reservoirs/date', { datasets: dataset, variables: variable, date, units: this.units(), output_format: 'json' });
    const sequence = ++this.sequence;
    try {
      const records = await getJson<WireRecord[]>(url);
      if (sequence !== this.sequence) return;
      const key = keyOf(records[0], variable) ?? variable;
      this.paint(records, key, `${key} on ${date}`);
      $('map-status').textContent = `${records.length.toLocaleString('en-US')} reservoirs have ${variable} on ${date}`;
      renderRequest($('map-request'), `every reservoir's ${variable} on ${date}`, url, `evap-${variable}-${date}`);
    } catch (error) {
      if (sequence === this.sequence) this.fail(error);
    }
  }

  // every reservoir's 28-day total of the latest issue, its median
  private async loadForecast(variable: string): Promise<void> {
    const url = apiUrl('/forecast/total/reservoirs', { RES_NAMES: 'ALL', variables: variable, statistics: 'p50', units: this.units(), output_format: 'json' });
    const sequence = ++this.sequence;
    try {
      const records = await getJson<WireRecord[]>(url);
      if (sequence !== this.sequence) return;
      const found = statisticKey(records[0], variable, 'p50');
      const issued = records[0]?.issued;
      this.paint(records, found?.key ?? variable, `${found?.key ?? variable}, 28 days from ${issued ?? 'the latest issue'}`);
      $('map-status').textContent = `${records.length.toLocaleString('en-US')} reservoirs have a ${variable} forecast issued ${issued ?? ''}`.trimEnd();
      renderRequest($('map-request'), `every reservoir's forecast ${variable} total`, url, `evap-forecast-total-${variable}`);
    } catch (error) {
      if (sequence === this.sequence) this.fail(error);
    }
  }

  // colours each reservoir by its record's value under `key`
  private paint(records: readonly WireRecord[], key: string, legend: string): void {
    const values = new Float64Array(this.bodies.size).fill(NaN);
    for (const r of records) {
      const i = this.bodies.find('reservoir', String(r.RES_NAME));
      if (i >= 0 && typeof r[key] === 'number') values[i] = r[key] as number;
    }
    const scale = colourScale(values);
    this.map.style = {
      ...this.map.style,
      colourOf: scale ? (i) => (this.bodies.kinds[i] === 'station' ? '#d9480f' : scale.colourOf(values[i]!)) : undefined,
    };
    if (scale) renderLegend($('legend'), scale, legend);
    else $('legend').hidden = true;
    this.map.redraw();
  }

  private fail(error: unknown): void {
    $('map-status').textContent = error instanceof ApiError ? `${error.status}: ${error.detail}` : String(error);
  }
}
