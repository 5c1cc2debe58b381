// Which store an answer came from, as a title says it: the demo store's values are synthetic, and a title says so.
import { findDemoStore } from '../store/demo.js';

/** Put on a stream by the store that made it: the label of that store. */
export const answerSource: unique symbol = Symbol('evap.answerSource') as never;

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
