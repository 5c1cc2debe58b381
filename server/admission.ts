// Heavy answers a few at a time. An answer that decodes millions of stored rows (every reservoir on a date at 44,000
// reservoirs reads a whole year of them) takes hundreds of milliseconds of this process's one thread; sixteen at once
// interleave, so all finish together after sixteen times that, holding sixteen answers' memory, and a small query
// waits behind every one of their turns. Admitted in turn, each heavy answer finishes at the pace of one, and small
// ones (most queries) never wait.
import { aroundOutputs, type RecordStream } from '../lib/format/stream.js';
import { HttpError } from './errors.js';

/** Stored rows an answer may decode (RecordStream.readRows) and still start at once: about 5,500 reservoir-years of one dataset. */
const HEAVY_READ_ROWS = 2_000_000;

/**
 * How much more a stored row weighs in an answer built whole (Parquet, Arrow) than in a streamed one: the records,
 * the typed table and the file are all made before the first byte, without yielding. Every demo reservoir over three
 * years (300,000 rows, 8 MiB of Parquet) is heavy at this weight, as 16 of them at once held a small query 12-18 s.
 */
export const WHOLE_ANSWER_WEIGHT = 16;

/** Heavy answers that may wait for a slot, per slot; more get 503 at once. */
export const WAITING_PER_SLOT = 8;

/** How long a heavy answer may wait for a slot before its 503 with Retry-After: half the stall timeout's default. */
const HEAVY_WAIT_MS = 15_000;

/** Lets at most `slots` heavy answers be produced at once; the others wait in arrival order, up to WAITING_PER_SLOT per slot. */
export class AnswerGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly slots: number,
    readonly heavyRows = HEAVY_READ_ROWS,
    readonly maxWaitMs = HEAVY_WAIT_MS, // then 503 with Retry-After: every waiting client gets an answer, never a silence
  ) {}

  /**
   * The stream as it is when light; else a stream whose outputs first wait for a slot and give it back when done.
   * `weight` is the cost of a stored row in the answer's format against JSON's: a Parquet or Arrow answer is built whole,
   * on this thread, so it is heavy from fewer rows (WHOLE_ANSWER_WEIGHT).
   */
  admit(stream: RecordStream, signal?: AbortSignal, weight = 1): RecordStream {
    return stream.readRows * weight <= this.heavyRows ? stream : aroundOutputs(stream, () => this.enter(signal));
  }

  /** Heavy answers being produced now, and waiting for a slot. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private async enter(signal: AbortSignal | undefined): Promise<() => void> {
    if (this.running >= this.slots) {
      if (this.waiting.length >= this.slots * WAITING_PER_SLOT) {
        throw new HttpError(503, `server busy: ${this.running + this.waiting.length} answers of millions of rows under way or waiting; retry later`, {
          'retry-after': '1',
        });
      }
      await new Promise<void>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const leaveLine = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', gone);
          const at = this.waiting.indexOf(turn);
          if (at >= 0) this.waiting.splice(at, 1);
        };
        const turn = () => {
          leaveLine();
          resolve();
        };
        const gone = () => {
          leaveLine();
          reject(new HttpError(503, 'the client went away while its answer waited for its turn'));
        };
        const late = () => {
          leaveLine();
          reject(
            new HttpError(503, `server busy: no turn within ${this.maxWaitMs / 1000} s among answers of millions of rows; retry later`, { 'retry-after': '1' }),
          );
        };
        if (signal?.aborted) return gone();
        timer = setTimeout(late, this.maxWaitMs);
        signal?.addEventListener('abort', gone, { once: true });
        this.waiting.push(turn);
      });
    } else this.running++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      if (next)
        next(); // the slot passes straight to the next in line
      else this.running--;
    };
  }
}
