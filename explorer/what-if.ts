// The selected reservoir's "what if": its evaporated volume computed by the model (/model/reservoirs/daterange) for a
// year, as stored (the baseline) and under the scenario typed in, month by month and in total, in acre-feet.
// Shown when the server lists the model's path.
import uPlot from 'uplot';
import { ApiError, apiFetch, apiUrl, getJson } from './api.js';
import { keyOf, type WireRecord } from './chart.js';
import { renderRequest } from './request.js';
import { formatDifference, formatShare, formatVolume, readTotal, scenarioParams, yearsOf } from './what-if-data.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const PATH = '/model/reservoirs/daterange';
const DATASET = 'nete-volume-calcs'; // the dataset of E_volume
const VARIABLE = 'E_volume';
const seconds = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;

export class WhatIfPanel {
  private plot?: uPlot;
  private name: string | undefined;
  private sequence = 0;
  private years?: Promise<void>;

  constructor() {
    const form = $<HTMLFormElement>('what-if-form');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.load();
    });
  }

  /** Offers the what-if of a reservoir, computed on *Compare* (not on every selection: four model runs), or hides the panel. */
  show(name: string | undefined): void {
    this.name = name;
    this.sequence++; // an answer still coming is for the previous reservoir
    this.clear();
    $('what-if').hidden = name === undefined;
    if (name === undefined) return;
    const status = $('what-if-status');
    status.classList.remove('error');
    status.textContent = `${name}: choose a year and changes, then Compare`;
    this.fillYears().catch((error: unknown) => this.fail(error));
  }

  // the years of the stored E_volume, newest first (the model runs on the forcing of the same days)
  private fillYears(): Promise<void> {
    return (this.years ??= getJson<{ start_date: string; end_date: string }[]>(apiUrl('/info/list_dates', { dataset: DATASET, variable: VARIABLE })).then(
      ([span]) => {
        const select = $<HTMLSelectElement>('what-if-year');
        const years = span ? yearsOf({ start: span.start_date, end: span.end_date }) : [];
        select.replaceChildren(
          ...years.map((y) => {
            const option = new Option(y.year, y.year);
            Object.assign(option.dataset, { start: y.start, end: y.end });
            return option;
          }),
        );
      },
      (error: unknown) => {
        this.years = undefined; // asked again on the next load
        throw error;
      },
    ));
  }

  /** Requests the baseline and the scenario (monthly for the chart, annual for the totals) and shows them. */
  async load(): Promise<void> {
    const name = this.name;
    if (name === undefined) return;
    const sequence = ++this.sequence;
    const status = $('what-if-status');
    status.classList.remove('error');
    status.textContent = 'computing…';
    try {
      await this.fillYears();
      const option = $<HTMLSelectElement>('what-if-year').selectedOptions[0];
      if (!option) throw new Error(`no stored ${VARIABLE} to run the model over`);
      const form = $<HTMLFormElement>('what-if-form');
      const scenario = scenarioParams((input) => (form.elements.namedItem(input) as HTMLInputElement).value);
      const base = {
        RES_NAMES: name,
        datasets: DATASET,
        variables: VARIABLE,
        units: 'english',
        start_date: option.dataset.start,
        end_date: option.dataset.end,
      };
      const url = (interval: string, withScenario: boolean) => apiUrl(PATH, { ...base, interval, ...(withScenario ? scenario : {}) });
      const scenarioAnswer = apiFetch(url('annual', true)); // its header echoes the scenario as the server read it
      const [baseline, changed, baselineMonths, changedMonths, echoed] = await Promise.all([
        getJson<WireRecord[]>(url('annual', false)),
        scenarioAnswer.then((r) => r.json() as Promise<WireRecord[]>),
        getJson<WireRecord[]>(url('monthly', false)),
        getJson<WireRecord[]>(url('monthly', true)),
        scenarioAnswer.then((r) => r.headers.get('x-evap-scenario') ?? ''),
      ]);
      if (sequence !== this.sequence) return;
      const before = readTotal(baseline, VARIABLE);
      const after = readTotal(changed, VARIABLE);
      if (before.counted === 0 || after.counted === 0) {
        this.clear();
        status.textContent = `no ${VARIABLE} computed for ${name} in ${option.value}`;
        return;
      }
      this.showTotals(before.total, after.total, before.unit, echoed);
      this.draw(baselineMonths, changedMonths, before.unit);
      status.textContent = `${name}, ${option.dataset.start} to ${option.dataset.end}: ${VARIABLE} computed by the model (DLEM), ${baselineMonths.length} months`;
      const file = `evap-what-if-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${option.value}`;
      renderRequest($('what-if-request'), `${name}: ${VARIABLE} in ${option.value}, ${echoed}`, url('monthly', true), file);
    } catch (error) {
      if (sequence === this.sequence) this.fail(error);
    }
  }

  private fail(error: unknown): void {
    this.clear();
    const status = $('what-if-status');
    status.classList.add('error');
    status.textContent = error instanceof ApiError ? `${error.status}: ${error.detail}` : String(error);
  }

  private showTotals(baseline: number, scenario: number, unit: string, echoed: string): void {
    const box = $('what-if-totals');
    const row = (label: string, value: string, className: string, note = '') => {
      const dt = document.createElement('dt');
      dt.textContent = label;
      const dd = document.createElement('dd');
      dd.className = className;
      dd.textContent = `${value} ${unit}${note && ` (${note})`}`;
      return [dt, dd];
    };
    box.replaceChildren(
      ...row('Baseline', formatVolume(baseline), 'what-if-baseline'),
      ...row(`Scenario (${echoed.replaceAll(',', ', ')})`, formatVolume(scenario), 'what-if-scenario'),
      ...row('Difference', formatDifference(scenario - baseline), 'what-if-difference', formatShare(scenario - baseline, baseline)),
    );
    box.hidden = false;
  }

  private draw(baseline: readonly WireRecord[], scenario: readonly WireRecord[], unit: string): void {
    const days = [...new Set([...baseline, ...scenario].map((r) => String(r.start_date)))].sort();
    const column = (records: readonly WireRecord[]) => {
      const key = keyOf(records[0], VARIABLE);
      const at = new Map(records.map((r) => [String(r.start_date), r]));
      return days.map((d) => {
        const value = key === undefined ? undefined : at.get(d)?.[key];
        return typeof value === 'number' ? value : null;
      });
    };
    const box = $('what-if-chart');
    this.plot?.destroy();
    this.plot = new uPlot(
      {
        width: Math.max(200, box.clientWidth || box.parentElement?.clientWidth || 400),
        height: 220,
        series: [
          { label: 'month', value: (_u, v) => (v == null ? '' : new Date(v * 1000).toISOString().slice(0, 7)) },
          { label: 'baseline', stroke: '#1d1d1f', width: 1.5 },
          { label: 'scenario', stroke: '#d9480f', width: 2, dash: [6, 3] },
        ],
        axes: [
          { stroke: '#333', grid: { stroke: '#eee' } },
          { label: `${unit} per month`, stroke: '#333', grid: { stroke: '#eee' }, size: 70 },
        ],
        scales: { x: { time: true } },
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { live: true },
      },
      [days.map(seconds), column(baseline), column(scenario)] as uPlot.AlignedData,
      box,
    );
    (box as HTMLElement & { uplot?: uPlot }).uplot = this.plot; // what is drawn, for the browser test
  }

  private clear(): void {
    this.plot?.destroy();
    this.plot = undefined;
    $('what-if-totals').hidden = true;
    $('what-if-request').hidden = true;
  }
}
