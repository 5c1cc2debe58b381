// A stream that displays itself: in Deno's kernel the cell's value is read (a fresh run of the query, so the stream
// stays usable) and shown as view() shows it; util.inspect, which cannot wait, shows what the stream will answer.
// The methods live on a prototype shared by a store's streams, so an answer that is never shown pays for setting
// that prototype (bench/notebook.ts) and nothing else.
import { inspectCustom, jupyterDisplay, type MimeBundle, showInTslab } from '../display/kernel.js';
import { escapeMarkup } from '../display/render.js';
import { sourceKey, sourceOf } from '../display/source.js';
import type { RecordStream } from '../format/stream.js';

const displayed = {
  async [jupyterDisplay](this: RecordStream): Promise<MimeBundle> {
    const { view } = await import('../notebook/view.js'); // the table's code (and Arrow) loaded when a notebook shows one, not by every process
    return (await view(this))[jupyterDisplay]();
  },
  [inspectCustom](this: RecordStream): string {
    const bundle = unreadBundle(this, sourceOf(this) ?? 'store');
    return showInTslab(bundle) ? '' : bundle['text/plain']; // in tslab the bundle is the cell's one output
  },
};

/** The prototype of a store's streams: the display methods, and the store's label made by `labelOf` when asked. */
export function displayPrototype(labelOf: () => string): object {
  return Object.create(displayed, { [sourceKey]: { get: labelOf } });
}

/**
 * The stream, given the prototype that displays it. The stream must be a fresh object of the caller's (the store's
 * aroundOutputs copy); its own keys are unchanged, so spreading or serializing it shows no display.
 */
export function withDisplay(stream: RecordStream, prototype: object): RecordStream {
  return Object.setPrototypeOf(stream, prototype) as RecordStream;
}

// what is known before reading: the columns and where from
function unreadBundle(stream: RecordStream, source: string): MimeBundle {
  const said = `evap answer from the ${source}, not read yet: \`await view(answer)\` reads it and shows its rows, \`await answer.records()\` gives them`;
  return {
    'text/plain': `${said}\ncolumns: ${stream.columns.join(', ')}`,
    'text/html': `<div class="evap-answer"><div>${escapeMarkup(said)}</div><table><thead><tr>${stream.columns.map((c) => `<th>${escapeMarkup(c)}</th>`).join('')}</tr></thead></table></div>`,
  };
}
