// The map: state outlines and every water body on one canvas, hover and selection rings on a second (input in
// map-input.ts); a grid index finds the point under the pointer among 44,000 without scanning them all.

import { geoPath } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Bodies } from './bodies.js';
import { Grid } from './grid.js';
import { listenMap } from './map-input.js';

const WIDTH = 975; // extent of the us-atlas albers files
const HEIGHT = 610;

export interface MapStyle {
  colourOf?: (i: number) => string | undefined; // fill by a value; undefined: no value on that date
  inside?: Uint8Array; // shapefile filter: 1 inside, 0 outside (drawn faint)
}

export class MapView {
  readonly base: HTMLCanvasElement;
  private readonly overlay: HTMLCanvasElement;
  private grid = new Grid(WIDTH, HEIGHT, 8);
  private gridSize = 0;
  private land?: Path2D;
  private borders?: Path2D;
  private k = 1; // zoom
  private tx = 0; // translation in CSS pixels
  private ty = 0;
  private fitK = 1; // zoom that shows the whole country
  private atHome = true; // not moved by the user: refitted on resize and as data arrives
  private width = 0;
  private height = 0;
  private pending = 0; // a full redraw scheduled
  private pendingQuick = 0; // a moved copy of the last one scheduled
  private settle = 0;
  private readonly cache = document.createElement('canvas'); // the last full drawing, moved and scaled while the input moves
  private cached = { k: 1, tx: 0, ty: 0 };
  private order = new Int32Array(0); // draw order: largest first, so small ones stay visible on top
  style: MapStyle = {};
  hover = -1;
  marked: number[] = []; // selected, then compared
  readonly frameTimes: number[] = []; // ms per full redraw, the last 120 (read by the bench and the test)
  readonly quickTimes: number[] = []; // ms per frame while panning and zooming, the last 120
  onHover: (i: number, x: number, y: number) => void = () => {};
  onPick: (i: number) => void = () => {};

  constructor(
    canvas: HTMLCanvasElement,
    private readonly bodies: Bodies,
  ) {
    this.base = canvas;
    this.overlay = document.createElement('canvas');
    this.overlay.className = 'map-overlay';
    this.overlay.setAttribute('aria-hidden', 'true');
    canvas.after(this.overlay);
    Object.assign(canvas, { frameTimes: this.frameTimes, quickTimes: this.quickTimes }); // read by bench/explorer.ts
    new ResizeObserver(() => this.resize()).observe(canvas.parentElement!);
    listenMap(this);
    this.resize();
  }

  /** Sets the basemap from the us-atlas states topology (already projected). */
  setBasemap(topology: Topology): void {
    const states = topology.objects.states as GeometryCollection;
    const path = geoPath(); // identity: the coordinates are already albers pixels
    this.land = new Path2D(path(feature(topology, states)) ?? '');
    this.borders = new Path2D(path(mesh(topology, states, (a, b) => a !== b)) ?? '');
    this.redraw();
  }

  /** Re-indexes after bodies were added (at the next frame, so bursts of metadata coalesce), then redraws. */
  update(): void {
    this.redraw();
  }

  // draw order by size, and the view fitted while the user has not moved it; redone when bodies were added
  private reindex(): void {
    if (this.order.length === this.bodies.size) return;
    const r = this.bodies.r;
    this.order = Int32Array.from({ length: this.bodies.size }, (_, i) => i).sort((a, b) => r[b]! - r[a]!);
    if (this.atHome) this.home();
  }

  // the grid for picking, built on the first pick after bodies were added (not on every redraw while loading)
  private gridOf(): Grid {
    if (this.gridSize !== this.bodies.size) {
      this.grid = new Grid(WIDTH, HEIGHT, 8);
      this.grid.build(this.bodies.x, this.bodies.y);
      this.gridSize = this.bodies.size;
    }
    return this.grid;
  }

  /** Schedules a full redraw at the next frame (coalesced). */
  redraw(): void {
    cancelAnimationFrame(this.pendingQuick);
    this.pendingQuick = 0;
    if (!this.pending) this.pending = requestAnimationFrame(() => this.draw());
  }

  // while the user pans and zooms, frames move and scale the last full drawing (a fixed cost, whatever the number of
  // points); the full redraw follows once the input has rested for 150 ms
  private interact(): void {
    this.atHome = false;
    if (!this.pending && !this.pendingQuick) this.pendingQuick = requestAnimationFrame(() => this.drawQuick());
    clearTimeout(this.settle);
    this.settle = window.setTimeout(() => this.redraw(), 150);
  }

  private drawQuick(): void {
    this.pendingQuick = 0;
    const t0 = performance.now();
    const ctx = this.base.getContext('2d')!;
    const dpr = this.base.width / this.width;
    const s = this.k / this.cached.k;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.width, this.height);
    ctx.drawImage(this.cache, this.tx - this.cached.tx * s, this.ty - this.cached.ty * s, this.width * s, this.height * s);
    this.quickTimes.push(performance.now() - t0);
    if (this.quickTimes.length > 120) this.quickTimes.shift();
    this.drawOverlay();
  }

  /** Fits the view to some bodies (a shapefile filter's), at most 3 times the whole-country zoom. */
  fitTo(indices: readonly number[]): void {
    this.home(indices, 3);
    this.atHome = false;
  }

  /** Pans so that body i is in view. */
  reveal(i: number): void {
    const x = this.bodies.x[i]!;
    const y = this.bodies.y[i]!;
    if (Number.isNaN(x)) return;
    const sx = x * this.k + this.tx;
    const sy = y * this.k + this.ty;
    if (sx < 20 || sy < 20 || sx > this.width - 20 || sy > this.height - 20) {
      this.tx = this.width / 2 - x * this.k;
      this.ty = this.height / 2 - y * this.k;
      this.atHome = false;
    }
    this.redraw();
  }

  /** Screen position (CSS pixels, relative to the canvas) of body i. */
  screenOf(i: number): [number, number] {
    return [this.bodies.x[i]! * this.k + this.tx, this.bodies.y[i]! * this.k + this.ty];
  }

  private radius(i: number): number {
    return this.bodies.r[i]! * Math.sqrt(this.k / this.fitK);
  }

  private resize(): void {
    const box = this.base.parentElement!.getBoundingClientRect();
    const width = Math.max(100, Math.floor(box.width));
    const height = Math.max(100, Math.floor(box.height));
    const dpr = window.devicePixelRatio || 1;
    for (const c of [this.base, this.overlay]) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      c.style.width = `${width}px`;
      c.style.height = `${height}px`;
    }
    this.fitK = Math.min(width / WIDTH, height / HEIGHT);
    this.width = width;
    this.height = height;
    if (this.atHome) this.home();
    this.pending = 0;
    this.draw();
  }

  /** Fits the view to the water bodies (the whole country before any has loaded), with a margin. */
  home(indices?: readonly number[], maxZoom = 8): void {
    const { x, y } = this.bodies;
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let n = 0; n < (indices ?? x).length; n++) {
      const i = indices ? indices[n]! : n;
      if (Number.isNaN(x[i]!)) continue;
      x0 = Math.min(x0, x[i]!);
      x1 = Math.max(x1, x[i]!);
      y0 = Math.min(y0, y[i]!);
      y1 = Math.max(y1, y[i]!);
    }
    if (!(x1 > x0)) [x0, y0, x1, y1] = [0, 0, WIDTH, HEIGHT];
    const pad = 0.08 * Math.max(x1 - x0, y1 - y0) + 10;
    [x0, y0, x1, y1] = [x0 - pad, y0 - pad, x1 + pad, y1 + pad];
    this.k = Math.min(this.fitK * maxZoom, this.width / (x1 - x0), this.height / (y1 - y0));
    this.tx = (this.width - (x0 + x1) * this.k) / 2;
    this.ty = (this.height - (y0 + y1) * this.k) / 2;
    this.atHome = true;
    this.redraw();
  }

  private draw(): void {
    this.reindex(); // before clearing pending: a refit here needs no second frame
    this.pending = 0;
    const t0 = performance.now();
    const ctx = this.base.getContext('2d')!;
    const dpr = this.base.width / this.width;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.width, this.height);
    ctx.save();
    ctx.translate(this.tx, this.ty);
    ctx.scale(this.k, this.k);
    if (this.land) {
      ctx.fillStyle = '#f3efe6';
      ctx.fill(this.land);
      ctx.strokeStyle = '#b9b2a3';
      ctx.lineWidth = 0.8 / this.k;
      ctx.stroke(this.borders!);
    }
    ctx.restore();
    this.drawPoints(ctx);
    if (this.cache.width !== this.base.width || this.cache.height !== this.base.height)
      Object.assign(this.cache, { width: this.base.width, height: this.base.height });
    const copy = this.cache.getContext('2d')!;
    copy.clearRect(0, 0, this.cache.width, this.cache.height);
    copy.drawImage(this.base, 0, 0);
    this.cached = { k: this.k, tx: this.tx, ty: this.ty };
    this.frameTimes.push(performance.now() - t0);
    if (this.frameTimes.length > 120) this.frameTimes.shift();
    this.drawOverlay();
  }

  // one path per fill colour: a fill per point would cost 44,000 state changes
  private drawPoints(ctx: CanvasRenderingContext2D): void {
    const { x, y, kinds } = this.bodies;
    const { colourOf, inside } = this.style;
    const paths = new Map<string, Path2D>();
    const faint = new Path2D();
    const scale = Math.sqrt(this.k / this.fitK);
    for (let n = 0; n < this.order.length; n++) {
      const i = this.order[n]!;
      const sx = x[i]! * this.k + this.tx;
      const sy = y[i]! * this.k + this.ty;
      const r = this.bodies.r[i]! * scale;
      if (!(sx > -r && sy > -r && sx < this.width + r && sy < this.height + r)) continue; // off screen, or NaN
      let path: Path2D;
      if (inside && !inside[i]) path = faint;
      else {
        const colour = colourOf ? (colourOf(i) ?? '#bbbbbb') : kinds[i] === 'station' ? '#d9480f' : '#1c6fb8';
        path = paths.get(colour) ?? paths.set(colour, new Path2D()).get(colour)!;
      }
      if (kinds[i] === 'station') path.rect(sx - r, sy - r, 2 * r, 2 * r);
      else if (r < 1.8)
        path.rect(sx - r, sy - r, 2 * r, 2 * r); // a disc this small is a square on screen; rects are cheaper
      else {
        path.moveTo(sx + r, sy);
        path.arc(sx, sy, r, 0, 2 * Math.PI);
      }
    }
    ctx.fillStyle = 'rgba(150,150,150,0.35)';
    ctx.fill(faint);
    ctx.globalAlpha = inside ? 1 : 0.78;
    for (const [colour, path] of paths) {
      ctx.fillStyle = colour;
      ctx.fill(path);
    }
    ctx.globalAlpha = 1;
    if (inside) {
      ctx.strokeStyle = '#111';
      ctx.lineWidth = 1;
      for (const path of paths.values()) ctx.stroke(path);
    }
  }

  /** Redraws only the rings (hover, selection): cheap, done on every pointer move. */
  drawOverlay(): void {
    const ctx = this.overlay.getContext('2d')!;
    const dpr = this.overlay.width / this.width;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.width, this.height);
    const ring = (i: number, colour: string, width: number) => {
      const [sx, sy] = this.screenOf(i);
      if (Number.isNaN(sx)) return;
      ctx.beginPath();
      ctx.arc(sx, sy, this.radius(i) + 3, 0, 2 * Math.PI);
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.stroke();
    };
    this.marked.forEach((i, n) => {
      ring(i, '#fff', 5);
      ring(i, n === 0 ? '#111' : '#6a3d9a', 2.5);
    });
    if (this.hover >= 0) ring(this.hover, '#e8590c', 2);
  }

  /** The body under a canvas position (CSS pixels), or -1. */
  pick(px: number, py: number): number {
    const mx = (px - this.tx) / this.k;
    const my = (py - this.ty) / this.k;
    const scale = Math.sqrt(this.k / this.fitK);
    const reach = (12 * scale + 4) / this.k; // the largest marker, plus a little slack, in map units
    let best = -1;
    let bestScore = Infinity;
    this.gridOf().near(mx, my, reach, (i) => {
      const dx = (this.bodies.x[i]! - mx) * this.k;
      const dy = (this.bodies.y[i]! - my) * this.k;
      const d = Math.hypot(dx, dy);
      const r = Math.max(4, this.bodies.r[i]! * scale);
      if (d <= r + 2 && d / r < bestScore) {
        best = i;
        bestScore = d / r; // the smallest marker wins where they overlap: the big one is easy to hit elsewhere
      }
    });
    return best;
  }

  /** Zooms by `factor` about a canvas position (CSS pixels). */
  zoomAt(factor: number, px: number, py: number): void {
    const k = Math.min(this.fitK * 400, Math.max(this.fitK * 0.8, this.k * factor));
    this.tx = px - ((px - this.tx) * k) / this.k;
    this.ty = py - ((py - this.ty) * k) / this.k;
    this.k = k;
    this.interact();
  }

  /** Pans by a distance in CSS pixels. */
  panBy(dx: number, dy: number): void {
    this.tx += dx;
    this.ty += dy;
    this.interact();
  }

  /** The canvas size in CSS pixels. */
  get size(): { width: number; height: number } {
    return { width: this.width, height: this.height };
  }

  /** Sets the body under the pointer (-1: none), redrawing the rings if it changed. */
  setHover(i: number): void {
    if (i === this.hover) return;
    this.hover = i;
    this.drawOverlay();
  }
}
