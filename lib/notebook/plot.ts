// plot(answer): a chart of an answer in one call, as standalone SVG that a notebook displays and a script writes to a file.
import { inspectCustom, jupyterDisplay, type MimeBundle, showInTslab } from '../display/kernel.js';
import { sourceOf, storeLabel } from '../display/source.js';
import type { RecordStream } from '../format/stream.js';
import type { WireRecord } from '../types.js';
import { isRecordStream, type PlainAnswer, plainRecords } from './answers.js';
import { type ChartKind, chartModel } from './chart-data.js';
import { renderSvg } from './svg-chart.js';

export interface PlotOptions {
  store?: { root: string } | string; // the store the answer came from, named in the title ("synthetic" for the demo store); a stream knows its own
  title?: string; // replaces the title made from the names, variables and store
  variables?: readonly string[]; // only these variables ("E_volume" or the answer's key "E_volume (acre-ft)"); default all
  normals?: PlainAnswer; // with a monthly answer: a normals answer of the same names, variables and units, drawn as each month's p10-p90 band
}

/** A chart: its SVG text, its title and series; it displays itself in notebooks and writes as `chart.svg`. */
export class Chart {
  constructor(
    readonly svg: string,
    readonly title: string,
    readonly kind: ChartKind,
    readonly series: readonly { name: string; variable: string; unit: string }[],
  ) {}

  /** One line naming the chart and its series. */
  get text(): string {
    return `${this.title} (${this.kind} chart, ${this.series.length} series: ${this.series.map((s) => `${s.name} ${s.variable}`).join('; ')})`;
  }

  /** The MIME bundle Deno's kernel shows. */
  [jupyterDisplay](): MimeBundle {
    return { 'text/plain': this.text, 'image/svg+xml': this.svg };
  }

  /** What util.inspect prints; in tslab the SVG and text are displayed as one output instead. */
  [inspectCustom](): string {
    return showInTslab({ 'text/plain': this.text, 'image/svg+xml': this.svg }) ? '' : this.text;
  }

  toString(): string {
    return this.svg;
  }
}

// "monthly" totals from their labels (2020-01), "water-year" (WY2020), else "annual" (2020)
function kindWords(kind: ChartKind, categories: readonly string[]): string {
  if (kind === 'normals') return categories[0]?.includes('-') ? 'daily normals of' : 'monthly normals of';
  if (kind !== 'periods') return kind;
  const first = categories[0] ?? '';
  return first.startsWith('WY') ? 'water-year totals of' : first.length === 7 ? 'monthly totals of' : 'annual totals of';
}

function defaultTitle(records: readonly WireRecord[], kind: string, variables: readonly string[], store: string | undefined): string {
  const names = [...new Set(records.map((r) => String(r.RES_NAME ?? r.STA_NAME ?? '')))];
  const what = `${names.length <= 3 ? names.join(', ') : `${names.length} names`}: ${kind} ${variables.map((v) => v.replace(/ \([^)]*\)$/, '')).join(', ')}`;
  return store ? `${what} · ${store}` : what;
}

function chartOf(records: readonly WireRecord[], columns: readonly string[], options: PlotOptions, source: string | undefined): Chart {
  const normals = options.normals ? plainRecords(options.normals).records : undefined;
  const model = chartModel(records, columns, { normals, variables: options.variables });
  const store = options.store !== undefined ? storeLabel(options.store) : source;
  const variables = [...new Set(model.series.map((s) => s.variable))];
  const title = options.title ?? defaultTitle(records, kindWords(model.kind, model.categories), variables, store);
  return new Chart(
    renderSvg(model, title),
    title,
    model.kind,
    model.series.map(({ name, variable, unit }) => ({ name, variable, unit })),
  );
}

/**
 * Charts an answer: daily values as lines, monthly, annual or water-year totals as bars (with the normal's band when
 * `normals` is given), a normals answer as its mean line in its p10-p90 band; one colour per name and variable, one
 * panel per unit. A stream is read (a fresh run of its query) and gives a promise.
 */
export function plot(answer: PlainAnswer, options?: PlotOptions): Chart;
export function plot(answer: RecordStream, options?: PlotOptions): Promise<Chart>;
export function plot(answer: PlainAnswer | RecordStream, options: PlotOptions = {}): Chart | Promise<Chart> {
  if (isRecordStream(answer)) {
    const source = sourceOf(answer);
    return answer.records().then((records) => chartOf(records, answer.columns, options, source));
  }
  const { columns, records } = plainRecords(answer);
  return chartOf(records, columns, options, undefined);
}
