// A chart model drawn as one standalone SVG document (no script, no font or style from elsewhere): a title, a legend
// with one colour per series, and one panel per unit with its own value axis; the x axis is dates or categories.
import { escapeMarkup } from '../display/render.js';
import type { ChartModel, ChartSeries } from './chart-data.js';
import { extent, thinPoints } from './thin.js';

/** The colours of the series, in order (Okabe and Ito's palette, readable by colour-blind readers), then repeated. */
export const seriesColours = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#000000'];

const width = 760;
const left = 64;
const right = 16;
const panelHeight = 200;
const panelGap = 44;
const plotWidth = width - left - right;

/** Round tick values from at or below `low` to at or above `high`: steps of 1, 2 or 5 times a power of ten, about `count` of them. */
export function niceTicks(low: number, high: number, count = 5): number[] {
  if (!(high > low)) return [low];
  const raw = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  // whole multiples of the step, counted (adding steps up would drift); an end that is a multiple of the step stays
  // the first or last tick despite the division's rounding (0.3 / 0.1 is 2.9999999999999996)
  let [first, last] = [Math.floor(low / step + 1e-9), Math.ceil(high / step - 1e-9)];
  // a range of subnormal width underflows the step to 0, and one a few units wide in the last digits of large values
  // (999999.9999999999 to 1e6) counts its steps past 2^53, where n + 1 is n: the loop below would never end (a random
  // chart test hung the suite so); a range narrower than the ticks' 15 digits cannot be covered by them. The two ends will do.
  const narrow = high - low < Math.max(Math.abs(low), Math.abs(high)) * 1e-12;
  if (narrow || !(step > 0) || !Number.isSafeInteger(first) || !Number.isSafeInteger(last) || last - first > 4 * count) return [low, high];
  const tick = (n: number) => Number((n * step).toPrecision(15));
  // millions of steps from zero, that allowance and the ticks' 15 digits can put an end tick a rounding inside the
  // range (999999999.9999998 to 1000000249.9999999 began at 1e9, a random chart test found): one step more covers it
  if (tick(first) > low) first--;
  if (tick(last) < high) last++;
  const ticks: number[] = [];
  for (let n = first; n <= last; n++) ticks.push(tick(n));
  return ticks;
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

function formatTick(v: number): string {
  return Math.abs(v) >= 10_000 ? compact.format(v) : String(Number(v.toPrecision(6)));
}

const isoDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

// month starts (every 1, 2, 3, 6 or 12 months, or whole years) as x ticks between two day numbers
function dateTicks(first: number, last: number): { day: number; label: string }[] {
  const start = new Date(first * 86_400_000);
  const months = (last - first) / 30.4;
  const every = [1, 2, 3, 6, 12, 24, 60, 120].find((m) => months / m <= 8) ?? 240;
  const ticks: { day: number; label: string }[] = [];
  for (let m = start.getUTCFullYear() * 12 + start.getUTCMonth(); ; m++) {
    if (m % every !== 0) continue;
    const day = Date.UTC(Math.floor(m / 12), m % 12, 1) / 86_400_000;
    if (day > last) break;
    if (day >= first) ticks.push({ day, label: every >= 12 ? isoDay(day).slice(0, 4) : isoDay(day).slice(0, 7) });
  }
  return ticks;
}

/** The chart as SVG text. */
export function renderSvg(model: ChartModel, title: string): string {
  const units = [...new Set(model.series.map((s) => s.unit))];
  // the title's last " · " part (the store) on a second line; the legend in as many columns as its labels allow
  const cut = title.lastIndexOf(' · ');
  const [heading, subtitle] = cut > 0 ? [title.slice(0, cut), title.slice(cut + 3)] : [title, ''];
  const labels = model.series.map((s) => `${s.name} · ${s.variable}`);
  const longest = extent(labels.map((l) => l.length))?.high ?? 0;
  const columns = Math.max(1, Math.min(4, Math.floor(plotWidth / (longest * 6.2 + 28))));
  const legendTop = subtitle ? 50 : 34;
  const banded = model.series.some((s) => s.points.some((p) => p.band));
  // x positions shared by every panel
  const xs = extent(model.series.flatMap((s) => s.points.map((p) => p.x))) ?? { low: 0, high: 1 };
  const [first, last] = [xs.low, xs.high];
  const slots = Math.max(model.categories.length, 1);
  const slot = plotWidth / slots;
  const xOf =
    model.kind === 'daily'
      ? (x: number) => left + (last > first ? ((x - first) / (last - first)) * plotWidth : plotWidth / 2)
      : (x: number) => left + (x + 0.5) * slot;
  // lines keep what a pixel column can show; bars are drawn as they are
  const drawn = model.kind === 'periods' ? model.series : model.series.map((s) => ({ ...s, points: thinPoints(s.points, (x) => Math.floor(xOf(x))) }));
  const [shown, total] = [drawn, model.series].map((list) => list.reduce((n, s) => n + s.points.filter((p) => p.value !== null).length, 0));
  const notes: string[] = [];
  if (banded) notes.push(`${model.kind === 'normals' ? 'line: the mean; shaded' : 'dashed boxes'}: the normal's 10th to 90th percentile`);
  if (shown! < total!) notes.push(`thinned to ${shown} points of ${total} (each pixel column keeps its lowest and highest value)`);
  const legendBottom = legendTop + Math.ceil(model.series.length / columns) * 16;
  const top = legendBottom + notes.length * 16 + 10;
  const height = top + units.length * (panelHeight + panelGap);
  const colour = (i: number) => seriesColours[i % seriesColours.length]!;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text class="title" x="${left}" y="20" font-size="14" font-weight="bold">${escapeMarkup(heading)}</text>`,
  ];
  if (subtitle) out.push(`<text class="subtitle" x="${left}" y="37" font-size="12" fill="#666">${escapeMarkup(subtitle)}</text>`);
  labels.forEach((label, i) => {
    const x = left + (i % columns) * (plotWidth / columns);
    const y = legendTop + Math.floor(i / columns) * 16;
    out.push(
      `<g class="legend-item"><rect x="${x}" y="${y}" width="12" height="10" fill="${colour(i)}"/><text x="${x + 16}" y="${y + 9}">${escapeMarkup(label)}</text></g>`,
    );
  });
  notes.forEach((note, n) => out.push(`<text class="note" x="${left}" y="${legendBottom + 9 + n * 16}" fill="#666">${note}</text>`));
  units.forEach((unit, u) => {
    const y0 = top + u * (panelHeight + panelGap);
    const inPanel = drawn.map((s, i) => ({ s, i })).filter(({ s }) => s.unit === unit);
    const values = inPanel.flatMap(({ s }) => s.points.flatMap((p) => [p.value, p.band?.low, p.band?.high])).filter((v): v is number => typeof v === 'number');
    if (model.kind === 'periods') values.push(0); // bars start at zero
    const range = extent(values) ?? { low: 0, high: 1 };
    const ticks = niceTicks(range.low, range.high);
    const low = Math.min(ticks[0]!, range.low);
    const high = Math.max(ticks.at(-1)!, range.high);
    const yOf = (v: number) => y0 + panelHeight - (high > low ? ((v - low) / (high - low)) * panelHeight : panelHeight / 2);
    const variables = [...new Set(inPanel.map(({ s }) => s.variable.replace(/ \([^)]*\)$/, '')))];
    out.push(`<g class="panel" data-unit="${escapeMarkup(unit)}">`);
    out.push(`<rect x="${left}" y="${y0}" width="${plotWidth}" height="${panelHeight}" fill="none" stroke="#ccc"/>`);
    for (const t of ticks) {
      const y = yOf(t).toFixed(1);
      out.push(
        `<line x1="${left}" x2="${left + plotWidth}" y1="${y}" y2="${y}" stroke="#eee"/><text class="y-tick" x="${left - 4}" y="${y}" dy="3" text-anchor="end">${formatTick(t)}</text>`,
      );
    }
    const yLabel = `${variables.join(', ')} (${unit})`;
    out.push(
      `<text class="axis-label y-axis-label" transform="translate(14 ${y0 + panelHeight / 2}) rotate(-90)" text-anchor="middle">${escapeMarkup(yLabel)}</text>`,
    );
    out.push(...xAxis(model, y0 + panelHeight, first, last, xOf));
    const groups = inPanel.length;
    inPanel.forEach(({ s, i }, g) => out.push(drawSeries(model, s, colour(i), xOf, yOf, slot, g, groups)));
    out.push('</g>');
  });
  out.push('</svg>');
  return out.join('\n');
}

function xAxis(model: ChartModel, y: number, first: number, last: number, xOf: (x: number) => number): string[] {
  const out: string[] = [];
  if (model.kind === 'daily') {
    for (const t of dateTicks(first, last)) {
      const x = xOf(t.day).toFixed(1);
      out.push(
        `<line x1="${x}" x2="${x}" y1="${y}" y2="${y + 4}" stroke="#888"/><text class="x-tick" x="${x}" y="${y + 15}" text-anchor="middle">${t.label}</text>`,
      );
    }
    out.push(`<text class="axis-label x-axis-label" x="${left + plotWidth / 2}" y="${y + 32}" text-anchor="middle">date</text>`);
    return out;
  }
  const every = Math.ceil(model.categories.length / 14); // at most 14 labels
  model.categories.forEach((label, i) => {
    if (i % every !== 0) return;
    out.push(`<text class="x-tick" x="${xOf(i).toFixed(1)}" y="${y + 15}" text-anchor="middle">${escapeMarkup(label)}</text>`);
  });
  const what = model.kind === 'normals' ? (model.categories[0]?.includes('-') ? 'day of the year' : 'month') : 'period';
  out.push(`<text class="axis-label x-axis-label" x="${left + plotWidth / 2}" y="${y + 32}" text-anchor="middle">${what}</text>`);
  return out;
}

function drawSeries(
  model: ChartModel,
  s: ChartSeries,
  colour: string,
  xOf: (x: number) => number,
  yOf: (v: number) => number,
  slot: number,
  group: number,
  groups: number,
): string {
  const out = [`<g class="series" data-name="${escapeMarkup(s.name)}" data-variable="${escapeMarkup(s.variable)}" data-points="${s.points.length}">`];
  out.push(`<title>${escapeMarkup(`${s.name} · ${s.variable}`)}</title>`);
  if (model.kind === 'periods') {
    const barWidth = (slot * 0.8) / groups;
    for (const p of s.points) {
      const x = xOf(p.x) - slot * 0.4 + group * barWidth;
      if (p.band) {
        out.push(
          `<rect class="band" x="${x.toFixed(1)}" width="${barWidth.toFixed(1)}" y="${yOf(p.band.high).toFixed(1)}" height="${(yOf(p.band.low) - yOf(p.band.high)).toFixed(1)}" fill="${colour}" fill-opacity="0.18" stroke="${colour}" stroke-dasharray="2 2"/>`,
        );
      }
      if (p.value === null) continue;
      const y = Math.min(yOf(p.value), yOf(0));
      const h = Math.abs(yOf(p.value) - yOf(0));
      out.push(
        `<rect class="bar" x="${(x + barWidth * 0.15).toFixed(1)}" width="${(barWidth * 0.7).toFixed(1)}" y="${y.toFixed(1)}" height="${h.toFixed(1)}" fill="${colour}"><title>${escapeMarkup(`${s.name} ${model.categories[p.x]}: ${p.value} ${s.unit}`)}</title></rect>`,
      );
    }
  } else {
    const banded = s.points.filter((p) => p.band);
    if (banded.length > 1) {
      const upper = banded.map((p) => `${xOf(p.x).toFixed(1)},${yOf(p.band!.high).toFixed(1)}`);
      const lower = banded.reverse().map((p) => `${xOf(p.x).toFixed(1)},${yOf(p.band!.low).toFixed(1)}`);
      out.push(`<polygon class="band" points="${[...upper, ...lower].join(' ')}" fill="${colour}" fill-opacity="0.18"/>`);
    }
    out.push(`<path class="line" d="${linePath(s, xOf, yOf)}" fill="none" stroke="${colour}" stroke-width="1.5"/>`);
  }
  out.push('</g>');
  return out.join('');
}

// a gap (null) breaks the line
function linePath(s: ChartSeries, xOf: (x: number) => number, yOf: (v: number) => number): string {
  let d = '';
  let pen = 'M';
  for (const p of s.points) {
    if (p.value === null) {
      pen = 'M';
      continue;
    }
    d += `${pen}${xOf(p.x).toFixed(1)},${yOf(p.value).toFixed(1)}`;
    pen = 'L';
  }
  return d;
}
