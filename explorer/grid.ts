// A uniform grid over map coordinates (counting sort into two typed arrays): the points near a position in O(nearby).

export class Grid {
  private readonly cols: number;
  private readonly rows: number;
  private starts = new Int32Array(1);
  private items = new Int32Array(0);

  constructor(
    width: number,
    height: number,
    private readonly cell: number,
  ) {
    this.cols = Math.ceil(width / cell);
    this.rows = Math.ceil(height / cell);
  }

  private cellOf(x: number, y: number): number {
    const cx = Math.min(this.cols - 1, Math.max(0, Math.floor(x / this.cell)));
    const cy = Math.min(this.rows - 1, Math.max(0, Math.floor(y / this.cell)));
    return cy * this.cols + cx;
  }

  /** Indexes every point with a position (NaN ones are left out). */
  build(xs: Float32Array, ys: Float32Array): void {
    const cells = this.cols * this.rows;
    const counts = new Int32Array(cells + 1);
    const cellOf = new Int32Array(xs.length).fill(-1);
    for (let i = 0; i < xs.length; i++) {
      if (Number.isNaN(xs[i]!) || Number.isNaN(ys[i]!)) continue;
      cellOf[i] = this.cellOf(xs[i]!, ys[i]!);
      counts[cellOf[i]! + 1]!++;
    }
    for (let c = 0; c < cells; c++) counts[c + 1]! += counts[c]!;
    this.starts = counts.slice();
    this.items = new Int32Array(counts[cells]!);
    for (let i = 0; i < xs.length; i++) if (cellOf[i]! >= 0) this.items[counts[cellOf[i]!]!++] = i;
  }

  /** Calls visit(i) for every point in the cells within `reach` of (x, y). */
  near(x: number, y: number, reach: number, visit: (i: number) => void): void {
    const c0 = Math.max(0, Math.floor((x - reach) / this.cell));
    const c1 = Math.min(this.cols - 1, Math.floor((x + reach) / this.cell));
    const r0 = Math.max(0, Math.floor((y - reach) / this.cell));
    const r1 = Math.min(this.rows - 1, Math.floor((y + reach) / this.cell));
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * this.cols + c;
        for (let n = this.starts[cell]!; n < this.starts[cell + 1]!; n++) visit(this.items[n]!);
      }
    }
  }
}
