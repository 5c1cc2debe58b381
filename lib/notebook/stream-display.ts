// A stream that displays itself: in Deno's kernel the cell's value is read (a fresh run of the query, so the stream
// stays usable) and shown as view() shows it; util.inspect, which cannot wait, shows what the stream will answer.
import type { RecordStream } from '../format/stream.js';
import { inspectCustom, jupyterDisplay, type MimeBundle, showInTslab } from './kernel.js';
import { escapeMarkup } from './render.js';
import { answerSource } from './source.js';
import { view } from './view.js';

/** The stream, given display methods (not enumerable: spreading or serializing the stream is unchanged) and its store's label. */
export function withDisplay(stream: RecordStream, source: string): RecordStream {
  Object.defineProperties(stream, {
    [answerSource]: { value: source },
    [jupyterDisplay]: { value: async (): Promise<MimeBundle> => (await view(stream))[jupyterDisplay]() },
    [inspectCustom]: {
      value: (): string => {
        const bundle = unreadBundle(stream, source);
        showInTslab(bundle);
        return bundle['text/plain'];
      },
    },
  });
  return stream;
}

// what is known before reading: the columns and where from
function unreadBundle(stream: RecordStream, source: string): MimeBundle {
  const said = `evap answer from the ${source}, not read yet: \`await view(answer)\` reads it and shows its rows, \`await answer.records()\` gives them`;
  return {
    'text/plain': `${said}\ncolumns: ${stream.columns.join(', ')}`,
    'text/html': `<div class="evap-answer"><div>${escapeMarkup(said)}</div><table><thead><tr>${stream.columns.map((c) => `<th>${escapeMarkup(c)}</th>`).join('')}</tr></thead></table></div>`,
  };
}
