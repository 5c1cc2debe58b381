// Which store an answer came from, as a title says it: the demo store's values are synthetic, and a title says so.
import { findDemoStore } from '../synthetic/demo.js';

/** Where a stream's prototype keeps its store's label (a getter: the label is made only when the stream is shown). */
export const sourceKey: unique symbol = Symbol('evap.source') as never;

/** The label of the store a stream reads, when the store made it. */
export function sourceOf(stream: object): string | undefined {
  return (stream as { [sourceKey]?: string })[sourceKey];
}

/** "demo store (synthetic values)" for the demo store, else the store's folder or location. */
export function storeLabel(store: { root: string } | string): string {
  const root = typeof store === 'string' ? store : store.root;
  let demo: string | undefined;
  try {
    demo = findDemoStore();
  } catch {
    demo = undefined; // no package root (a bundled copy): no demo store to compare with
  }
  return demo !== undefined && trimmed(root) === trimmed(demo) ? 'demo store (synthetic values)' : `store ${root}`;
}

function trimmed(path: string): string {
  return path.replace(/[\\/]+$/, '');
}
