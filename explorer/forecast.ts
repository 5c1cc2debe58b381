// The selected reservoir's forecast: the 28-day total with its range (what a water manager plans with), its recent
// estimates, then the latest issue as a fan (p05-p95, p25-p75, median), and below it the skill of past issues by lead. Shown when the server lists the forecast paths.
import uPlot from 'uplot';
import { ApiError, apiUrl, getJson } from './api.js';
import { fitTicks, keyOf } from './chart.js';
import { describeTotal, type Fan, readFan, readSkill, readTotal, type WireRecord } from './forecast-data.js';
import { renderRequest } from './request.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const RECENT_DAYS = 60; // estimates shown before the issue date
const seconds = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const fanBlue = (alpha: number) => `rgba(28,111,184,${alpha})`;

export class ForecastPanel {
  private fanPlot?: uPlot;
  private skillPlot?: uPlot;
  private name: string | undefined;
  private sequence = 0;
  private datasetOf?: Promise<Map<string, string>>; // variable -> the dataset holding its estimates

  constructor(
    private readonly datasets: readonly string[],
    private readonly units: () => string,
  ) {
    $('forecast-variable').addEventListener('change', () => void this.load());
  }

  /** Shows the forecast of a reservoir, or hides the panel (a station, or nothing selected). */
  show(name: string | undefined): void {
    this.name = name;
    $('forecast').hidden = name === undefined;
    if (name !== undefined) void this.load();
  }

  /** Requests the latest forecast, the recent estimates and the verification, and draws both charts. */
  async load(): Promise<void> {
    const name = this.name;
    if (name === undefined) return;
    const sequence = ++this.sequence;
    const variable = $<HTMLSelectElement>('forecast-variable').value;
    const units = this.units();
    const status = $('forecast-status');
    const total = $('forecast-total');
    status.classList.remove('error');
    status.textContent = 'loading…';
    total.textContent = '';
    try {
      const url = apiUrl('/forecast/daily/reservoirs', { RES_NAMES: name, variables: variable, statistics: 'p05,p25,p50,p75,p95', units });
      const verificationUrl = apiUrl('/forecast/verification/reservoirs', { RES_NAMES: name, variables: variable, units });
      const totalUrl = apiUrl('/forecast/total/reservoirs', { RES_NAMES: name, variables: variable, statistics: 'p10,p50,p90', units });
      const [forecast, verification, dataset, totals] = await Promise.all([
        getJson<WireRecord[]>(url),
        getJson<WireRecord[]>(verificationUrl),
        this.datasetFor(variable),
        // a forecast loaded without members has no totals (a 422 saying so): the rest of the view still stands
        getJson<WireRecord[]>(totalUrl).catch((e: unknown) => (e instanceof ApiError ? e : Promise.reject(e))),
      ]);
      const fan = readFan(forecast, variable);
      if (sequence !== this.sequence) return;
      if (!fan) {
        this.clear();
        status.textContent = `no forecast of ${variable} for ${name}`;
        return;
      }
      const observed =
        dataset === undefined
          ? []
          : await getJson<WireRecord[]>(
              apiUrl('/timeseries/daily/reservoirs/daterange', {
                RES_NAMES: name,
                datasets: dataset,
                variables: variable,
                units,
                start_date: addDays(fan.issued, 1 - RECENT_DAYS),
                end_date: fan.issued,
              }),
            );
      if (sequence !== this.sequence) return;
      this.drawFan(fan, observed, variable);
      const skill = readSkill(verification, variable);
      this.drawSkill(skill);
      const sum = totals instanceof ApiError ? undefined : readTotal(totals, variable);
      total.textContent = sum ? describeTotal(sum) : `no total of the next ${fan.days.length} days${totals instanceof ApiError ? `: ${totals.detail}` : ''}`;
      status.textContent =
        `issued ${fan.issued}, ${fan.days.length} lead days` +
        (skill.leads.length ? `; skill from ${skill.leads.length} leads of the archive` : '; no verification yet');
      renderRequest($('forecast-request'), `${name}: the latest ${variable} forecast`, url, `evap-forecast-${variable}-${fan.issued}`);
    } catch (error) {
      if (sequence !== this.sequence) return;
      this.clear();
      status.classList.add('error');
      status.textContent = error instanceof ApiError ? `${error.status}: ${error.detail}` : String(error);
    }
  }

  // the dataset whose estimates a forecast variable continues (E_volume: nete-volume-calcs, E_hs: lem, pr: rtma)
  private async datasetFor(variable: string): Promise<string | undefined> {
    this.datasetOf ??= Promise.all(
      this.datasets.map(async (d) => [d, await getJson<{ api_name: string }[]>(apiUrl('/info/list_variables', { dataset: d }))] as const),
    ).then((lists) => new Map(lists.flatMap(([d, list]) => list.map((v) => [v.api_name, d] as const)).reverse()));
    return (await this.datasetOf).get(variable);
  }

  private drawFan(fan: Fan, observed: readonly WireRecord[], variable: string): void {
    const key = keyOf(observed[0], variable);
    const days = [...new Set([...observed.map((r) => String(r.start_date)), ...fan.days])].sort();
    const at = new Map(days.map((d, i) => [d, i]));
    const column = () => new Array<number | null>(days.length).fill(null);
    const estimates = column();
    for (const r of observed) if (key && typeof r[key] === 'number') estimates[at.get(String(r.start_date))!] = r[key] as number;
    const stat = (s: keyof Fan['values']) => {
      const c = column();
      fan.days.forEach((d, i) => (c[at.get(d)!] = fan.values[s][i]!));
      return c;
    };
    const data = [days.map(seconds), estimates, stat('p95'), stat('p05'), stat('p75'), stat('p25'), stat('p50')];
    const edge = { stroke: fanBlue(0.35), width: 0.5, points: { show: false } };
    this.fanPlot?.destroy();
    this.fanPlot = new uPlot(
      {
        ...this.size($('forecast-chart')),
        series: [
          { label: 'date', value: (_u, v) => (v == null ? '' : new Date(v * 1000).toISOString().slice(0, 10)) },
          { label: `${variable} estimate`, stroke: '#1d1d1f', width: 1.5 },
          { label: 'p95', ...edge },
          { label: 'p05', ...edge },
          { label: 'p75', ...edge },
          { label: 'p25', ...edge },
          { label: `median, issued ${fan.issued}`, stroke: '#1c6fb8', width: 2 },
        ],
        bands: [
          { series: [2, 3], fill: fanBlue(0.15) },
          { series: [4, 5], fill: fanBlue(0.3) },
        ],
        axes: [
          { stroke: '#333', grid: { stroke: '#eee' } },
          { label: fan.unit, stroke: '#333', grid: { stroke: '#eee' }, size: fitTicks },
        ],
        scales: { x: { time: true } },
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { live: true },
      },
      data as uPlot.AlignedData,
      $('forecast-chart'),
    );
    ($('forecast-chart') as HTMLElement & { uplot?: uPlot }).uplot = this.fanPlot; // what is drawn, for the browser test
  }

  private drawSkill(skill: ReturnType<typeof readSkill>): void {
    this.skillPlot?.destroy();
    this.skillPlot = undefined;
    const box = $('skill-chart');
    box.hidden = skill.leads.length === 0;
    if (box.hidden) return;
    this.skillPlot = new uPlot(
      {
        ...this.size(box, 200),
        series: [
          { label: 'lead (days)' },
          { label: 'skill (1 − MAE / MAE of the reference)', stroke: '#2b8a3e', width: 2 },
          { label: 'share within p10–p90', stroke: '#e8a202', width: 1.5, dash: [6, 3] },
        ],
        axes: [
          { label: 'lead (days)', stroke: '#333', grid: { stroke: '#eee' } },
          { label: 'skill, share', stroke: '#333', grid: { stroke: '#eee' }, size: fitTicks },
        ],
        scales: { x: { time: false } },
        legend: { live: true },
      },
      [skill.leads, skill.skill, skill.coverage] as uPlot.AlignedData,
      box,
    );
    (box as HTMLElement & { uplot?: uPlot }).uplot = this.skillPlot;
  }

  private size(element: HTMLElement, height = 240): { width: number; height: number } {
    return { width: Math.max(200, element.clientWidth || element.parentElement?.clientWidth || 400), height };
  }

  private clear(): void {
    this.fanPlot?.destroy();
    this.skillPlot?.destroy();
    this.fanPlot = this.skillPlot = undefined;
    $('skill-chart').hidden = true;
    $('forecast-request').hidden = true;
    $('forecast-total').textContent = '';
  }
}
