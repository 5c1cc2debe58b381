// How a value shows itself in the two TypeScript notebook kernels and in a Node REPL: Deno asks the value
// (Symbol.for('Jupyter.display')), Node's util.inspect asks it too (tslab prints a cell's value with it), and tslab
// shows rich output only through its display API, which is found in the running kernel, never imported.
import { createRequire } from 'node:module';

/** The method Deno's Jupyter kernel calls on a cell's value: it returns a MIME bundle, or a promise of one. */
export const jupyterDisplay: unique symbol = Symbol.for('Jupyter.display') as never;

/** The method util.inspect calls (Node's REPL, console.log, tslab's cell values); Deno honours it too. */
export const inspectCustom: unique symbol = Symbol.for('nodejs.util.inspect.custom') as never;

/** What a notebook shows: a plain-text form always, and HTML or SVG where there is one. */
export interface MimeBundle {
  'text/plain': string;
  'text/html'?: string;
  'image/svg+xml'?: string;
}

interface TslabDisplay {
  html(s: string): void;
  svg(s: string): void;
}

/** tslab's display API when this process is a tslab kernel running a cell, else undefined. */
function tslabDisplay(): TslabDisplay | undefined {
  if (!('__tslab__' in globalThis)) return undefined;
  try {
    // the running kernel's own module: tslab's command hands over to a copy installed where it starts, so several
    // copies may be loaded, and only the running one has a cell's output channel set
    const cache = createRequire(import.meta.url).cache;
    const kernel = Object.keys(cache).find(
      (id) =>
        /[\\/]tslab[\\/]dist[\\/]jupyter\.js$/.test(id) &&
        typeof (cache[id]?.exports as { lastWriteDisplayData?: unknown } | undefined)?.lastWriteDisplayData === 'function',
    );
    if (kernel === undefined) return undefined;
    return (createRequire(kernel)('./public.js') as { display: TslabDisplay }).display;
  } catch {
    return undefined; // another tslab layout: the text form still shows
  }
}

/** Sends a bundle's rich part through tslab's display API when running in tslab; true when it was shown. */
export function showInTslab(bundle: MimeBundle): boolean {
  const display = tslabDisplay();
  if (display === undefined) return false;
  try {
    if (bundle['image/svg+xml'] !== undefined) display.svg(bundle['image/svg+xml']);
    else if (bundle['text/html'] !== undefined) display.html(bundle['text/html']);
    else return false;
    return true;
  } catch {
    return false; // not while a cell runs: the text form still shows
  }
}
