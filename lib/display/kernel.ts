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

/** The running tslab kernel's writer of a display_data message (every MIME type of one bundle in one output). */
type WriteDisplayData = (message: { data: Record<string, string>; metadata: object; transient: object }, update: boolean) => void;

/** The running tslab kernel's display writer when this process is a tslab kernel running a cell, else undefined. */
function tslabWriter(): WriteDisplayData | undefined {
  if (!('__tslab__' in globalThis)) return undefined;
  try {
    // the running kernel's own module: tslab's command hands over to a copy installed where it starts, so several
    // copies may be loaded, and only the running one has a cell's output channel set
    const cache = createRequire(import.meta.url).cache;
    for (const [id, module] of Object.entries(cache)) {
      const write = (module?.exports as { lastWriteDisplayData?: unknown } | undefined)?.lastWriteDisplayData;
      if (/[\\/]tslab[\\/]dist[\\/]jupyter\.js$/.test(id) && typeof write === 'function') return write as WriteDisplayData;
    }
    return undefined;
  } catch {
    return undefined; // another tslab layout: the text form still shows
  }
}

/**
 * Shows the whole bundle (text and HTML or SVG) as one tslab output when running in tslab; true when it was shown.
 * tslab then prints the cell's value with console.log: the caller returns '' from util.inspect, and the bare newline
 * that console.log writes next is dropped, so the cell has one output, not the rich one and a text copy.
 */
export function showInTslab(bundle: MimeBundle): boolean {
  const write = tslabWriter();
  if (write === undefined) return false;
  try {
    write({ data: { ...bundle }, metadata: {}, transient: {} }, false);
  } catch {
    return false; // not while a cell runs: the text form still shows
  }
  dropNextNewline();
  return true;
}

// console.log(value) writes inspect's '' and a newline: swallow that one write (and only in this turn of the loop)
function dropNextNewline(): void {
  const stdout = process.stdout;
  const original = stdout.write;
  const restore = () => {
    if (stdout.write === once) stdout.write = original;
  };
  const once = function (this: unknown, chunk: unknown, ...rest: unknown[]): boolean {
    restore();
    if (chunk === '\n') return true;
    return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof stdout.write;
  stdout.write = once;
  setImmediate(restore);
}
