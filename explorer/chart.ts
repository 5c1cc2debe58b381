// The chart: uPlot (canvas; 16,800 daily points per series pan and zoom smoothly), one series per name and variable,
// one y scale per unit, and an optional band of normals.
import uPlot from 'uplot';

export type WireRecord = Record<string, string | number | null>;

/** What the chart shows: records of one request, the names and variables asked, and optional normals bands. */
export interface ChartInput {
  records: readonly WireRecord[];
  nameKey: 'RES_NAME' | 'STA_NAME';
  names: readonly string[];
  variables: readonly string[];
  bands?: Map<string, { low: (day: string) => number | null; high: (day: string) => number | null }>; // by variable, for names[0]
}

// one colour per series (name x variable), then dashes tell variables apart once the colours repeat
const colours = ['#1c6fb8', '#d9480f', '#2b8a3e', '#6a3d9a', '#c2255c', '#e8a202', '#0b7285', '#5c940d', '#862e9c', '#495057'];
const dashes: (number[] | undefined)[] = [undefined, [6, 3], [2, 3], [10, 3, 2, 3]];

/** The key of a variable in a record: `"<variable> (<unit>)"`. */
export function keyOf(record: WireRecord | undefined, variable: string): string | undefined {
  return record ? Object.keys(record).find((k) => k.startsWith(`${variable} (`)) : undefined;
}

let measure: CanvasRenderingContext2D | null | undefined; // a canvas of its own: uPlot caches the font it set on its own

/**
 * The width of a y axis that holds its widest tick label, for an axis's `size`: a fixed width let "1,000,000" run into
 * the unit's label beside the ticks. uPlot asks again while the widths change; after two rounds the width stands.
 */
export function fitTicks(self: uPlot, values: string[] | null, axisIdx: number, cycleNum: number): number {
  // the axis as uPlot resolved it (its font a [css, size] pair), which its types do not say
  const axis = self.axes[axisIdx] as unknown as { _size?: number; font: [string, number]; ticks: { show: boolean; size: number }; gap: number };
  if (cycleNum > 1 && axis._size !== undefined) return axis._size;
  measure ??= document.createElement('canvas').getContext('2d');
  let widest = 0;
  if (measure) {
    measure.font = axis.font[0]; // in device pixels
    for (const v of values ?? []) widest = Math.max(widest, measure.measureText(v).width / uPlot.pxRatio);
  }
  return Math.ceil((axis.ticks.show ? axis.ticks.size : 0) + axis.gap + widest) + 2;
}

const unitOf = (key: string) => /\(([^)]*)\)$/.exec(key)?.[1] ?? '';
const seconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

export class Chart {
  private plot?: uPlot;
  points = 0; // values drawn (non-null), for the status line and the test

  constructor(private readonly element: HTMLElement) {
    new ResizeObserver(() => this.plot?.setSize(this.size())).observe(element);
  }

  private size(): { width: number; height: number } {
    const width = Math.max(200, this.element.clientWidth);
    return { width, height: width < 500 ? 240 : 300 };
  }

  /** Draws the records; returns the unit labels per variable (from the record keys). */
  show(input: ChartInput): Map<string, string> {
    this.plot?.destroy();
    this.points = 0;
    const { records, nameKey, names, variables } = input;
    const days = [...new Set(records.map((r) => String(r.start_date)))].sort();
    const x = days.map(seconds);
    const at = new Map(days.map((d, n) => [d, n]));
    const units = new Map<string, string>();
    const series: uPlot.Series[] = [{ label: 'date', value: (_u, v) => (v == null ? '' : new Date(v * 1000).toISOString().slice(0, 10)) }];
    const data: (number | null)[][] = [x];
    const scales = new Map<string, string>(); // unit -> scale key
    names.forEach((name) => {
      const own = records.filter((r) => r[nameKey] === name);
      variables.forEach((variable) => {
        const key = keyOf(own[0] ?? records[0], variable);
        if (!key) return;
        const unit = unitOf(key);
        units.set(variable, unit);
        if (!scales.has(unit)) scales.set(unit, `y${scales.size}`);
        const column: (number | null)[] = new Array(x.length).fill(null);
        for (const r of own) {
          const value = r[key];
          if (typeof value === 'number') {
            column[at.get(String(r.start_date))!] = value;
            this.points++;
          }
        }
        data.push(column);
        series.push({
          label: names.length > 1 ? `${name} ${key}` : key,
          stroke: colours[(series.length - 1) % colours.length],
          dash: dashes[Math.floor((series.length - 1) / colours.length) % dashes.length],
          width: 1.5,
          scale: scales.get(unit),
          spanGaps: false,
          points: { show: x.length < 120 },
        });
      });
    });
    const bands: uPlot.Band[] = [];
    for (const [variable, band] of input.bands ?? []) {
      const unit = units.get(variable);
      if (unit === undefined) continue;
      // normals are by calendar day or month: map each shown day onto them
      data.push(
        days.map((d) => band.high(d)),
        days.map((d) => band.low(d)),
      );
      const hi = series.length;
      series.push({ label: `${variable} normal p90`, stroke: 'rgba(28,111,184,0.25)', scale: scales.get(unit), width: 0.5 });
      series.push({ label: `${variable} normal p10`, stroke: 'rgba(28,111,184,0.25)', scale: scales.get(unit), width: 0.5 });
      bands.push({ series: [hi, hi + 1], fill: 'rgba(28,111,184,0.12)' });
    }
    const day = 86_400;
    // whole days at least: daily (or longer) values have no hours to label
    const axes: uPlot.Axis[] = [
      {
        stroke: '#333',
        grid: { stroke: '#eee' },
        incrs: [day, 2 * day, 7 * day, 14 * day, 30 * day, 91 * day, 182 * day, 365 * day, 730 * day, 1826 * day, 3652 * day],
      },
    ];
    [...scales].forEach(([unit, scale], n) =>
      axes.push({ scale, label: unit, side: n % 2 === 0 ? 3 : 1, stroke: '#333', grid: { show: n === 0, stroke: '#eee' }, size: fitTicks }),
    );
    this.plot = new uPlot(
      {
        ...this.size(),
        series,
        axes,
        bands,
        scales: { x: { time: true } },
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        cursor: { drag: { x: true, y: false, setScale: true } },
        legend: { live: true },
      },
      data as uPlot.AlignedData,
      this.element,
    );
    (this.element as HTMLElement & { uplot?: uPlot }).uplot = this.plot; // what is drawn, for the browser test to compare with the API
    return units;
  }

  /** Removes the chart. */
  clear(): void {
    this.plot?.destroy();
    this.plot = undefined;
    this.points = 0;
  }
}
