// Colouring by a value: a fixed sequential palette (viridis, colour-blind safe) over the 2nd-98th percentile range.

const palette = ['#440154', '#472d7b', '#3b528b', '#2c728e', '#21918c', '#28ae80', '#5ec962', '#addc30', '#fde725'];

/** A colour scale over the values (NaN ignored); outliers take the end colours. */
export interface ColourScale {
  colourOf(value: number): string | undefined;
  low: number;
  high: number;
}

/** A scale from the values' 2nd to 98th percentile; undefined when no value is finite. */
export function colourScale(values: ArrayLike<number>): ColourScale | undefined {
  const finite = Array.from(values)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  if (finite.length === 0) return undefined;
  const at = (q: number) => finite[Math.min(finite.length - 1, Math.floor(q * finite.length))]!;
  const low = at(0.02);
  const high = at(0.98);
  const span = high - low || 1;
  return {
    low,
    high,
    colourOf: (value) => {
      if (!Number.isFinite(value)) return undefined;
      const t = Math.min(1, Math.max(0, (value - low) / span));
      return palette[Math.round(t * (palette.length - 1))];
    },
  };
}

/** Fills the legend element: a gradient with the low and high values and the unit. */
export function renderLegend(element: HTMLElement, scale: ColourScale, label: string): void {
  const digits = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3));
  element.replaceChildren();
  const title = document.createElement('div');
  title.textContent = label;
  const bar = document.createElement('div');
  bar.className = 'legend-bar';
  bar.style.background = `linear-gradient(to right, ${palette.join(', ')})`;
  const ends = document.createElement('div');
  ends.className = 'legend-ends';
  const [lo, hi] = [document.createElement('span'), document.createElement('span')];
  lo.textContent = `≤ ${digits(scale.low)}`;
  hi.textContent = `≥ ${digits(scale.high)}`;
  ends.append(lo, hi);
  const none = document.createElement('div');
  none.className = 'legend-none';
  none.textContent = 'grey: no value';
  element.append(title, bar, ends, none);
  element.hidden = false;
}
