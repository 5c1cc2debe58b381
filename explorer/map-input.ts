// The map's input: drag and arrow keys pan, wheel, double-click and +/- zoom, 0 fits; hover names, a click selects.
import type { MapView } from './map.js';

/** Wires pointer, wheel and keyboard events of the map's canvas to the view. */
export function listenMap(view: MapView): void {
  const canvas = view.base;
  let drag: { x: number; y: number; moved: boolean } | undefined;
  const local = (e: MouseEvent) => {
    const box = canvas.getBoundingClientRect();
    return [e.clientX - box.left, e.clientY - box.top] as const;
  };
  canvas.addEventListener('pointerdown', (e) => {
    canvas.setPointerCapture(e.pointerId);
    drag = { x: e.clientX, y: e.clientY, moved: false };
  });
  canvas.addEventListener('pointermove', (e) => {
    const [px, py] = local(e);
    if (drag && (drag.moved || Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 3)) {
      view.panBy(e.clientX - drag.x, e.clientY - drag.y);
      drag = { x: e.clientX, y: e.clientY, moved: true };
      return;
    }
    const i = view.pick(px, py);
    view.setHover(i);
    view.onHover(i, px, py);
  });
  canvas.addEventListener('pointerup', (e) => {
    const wasDrag = drag?.moved;
    drag = undefined;
    if (wasDrag) return;
    const [px, py] = local(e);
    const i = view.pick(px, py);
    if (i >= 0) view.onPick(i);
  });
  canvas.addEventListener('pointerleave', () => {
    view.setHover(-1);
    view.onHover(-1, 0, 0);
  });
  canvas.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault(); // the page must not scroll while the map zooms
      const [px, py] = local(e);
      view.zoomAt(Math.exp(-e.deltaY * 0.0015), px, py);
    },
    { passive: false },
  );
  canvas.addEventListener('dblclick', (e) => {
    const [px, py] = local(e);
    view.zoomAt(e.shiftKey ? 0.5 : 2, px, py);
  });
  canvas.addEventListener('keydown', (e) => {
    const step = 60;
    const { width, height } = view.size;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => view.panBy(step, 0),
      ArrowRight: () => view.panBy(-step, 0),
      ArrowUp: () => view.panBy(0, step),
      ArrowDown: () => view.panBy(0, -step),
      '+': () => view.zoomAt(1.5, width / 2, height / 2),
      '=': () => view.zoomAt(1.5, width / 2, height / 2),
      '-': () => view.zoomAt(1 / 1.5, width / 2, height / 2),
      '0': () => view.home(),
    };
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  });
}
