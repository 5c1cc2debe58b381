// view(answer): an answer shown as a compact table in a notebook (Deno, tslab) or a Node REPL; the answer itself
// stays plain data.
import { inspectCustom, jupyterDisplay, type MimeBundle, showInTslab } from '../display/kernel.js';
import { summaryHtml, summaryText } from '../display/render.js';
import { sourceOf } from '../display/source.js';
import { type AnswerSummary, summarizeBatches, summarizeRecords } from '../display/summary.js';
import type { RecordStream } from '../format/stream.js';
import { isRecordStream, type PlainAnswer, plainRecords } from './answers.js';

export interface ViewOptions {
  title?: string; // the caption's first words (default "evap answer", with the store's label when a stream knows it)
}

/** An answer's summary that displays itself: HTML and text in notebooks, text in util.inspect and String(). */
export class AnswerView {
  constructor(
    readonly title: string,
    readonly summary: AnswerSummary,
  ) {}

  /** The compact HTML table. */
  get html(): string {
    return summaryHtml(this.title, this.summary);
  }

  /** The same as aligned plain text. */
  get text(): string {
    return summaryText(this.title, this.summary);
  }

  /** The MIME bundle Deno's kernel shows. */
  [jupyterDisplay](): MimeBundle {
    return { 'text/plain': this.text, 'text/html': this.html };
  }

  /** What util.inspect prints; in tslab the HTML table and text are displayed as one output instead. */
  [inspectCustom](): string {
    return showInTslab({ 'text/plain': this.text, 'text/html': this.html }) ? '' : this.text;
  }

  toString(): string {
    return this.text;
  }
}

/**
 * Shows an answer as a compact table (the first and last rows of a long one). Records and Arrow tables are summarized
 * at once; a stream is read to the end (a fresh run of its query: the stream stays usable) and gives a promise.
 */
export function view(answer: PlainAnswer, options?: ViewOptions): AnswerView;
export function view(answer: RecordStream, options?: ViewOptions): Promise<AnswerView>;
export function view(answer: PlainAnswer | RecordStream, options: ViewOptions = {}): AnswerView | Promise<AnswerView> {
  if (isRecordStream(answer)) {
    const source = sourceOf(answer);
    const title = options.title ?? (source ? `evap answer from the ${source}` : 'evap answer');
    return summarizeBatches(answer.batches, answer.columns).then((summary) => new AnswerView(title, summary));
  }
  const { columns, records } = plainRecords(answer);
  return new AnswerView(options.title ?? 'evap answer', summarizeRecords(records, columns));
}
