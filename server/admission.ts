// Heavy answers a few at a time. An answer that decodes millions of stored rows (every reservoir on a date at 44,000
// reservoirs reads a whole year of them) takes hundreds of milliseconds of this process's one thread; sixteen at once
// interleave, so all finish together after sixteen times that, holding sixteen answers' memory, and a small query
// waits behind every one of their turns. Admitted in turn, each heavy answer finishes at the pace of one, and small
// ones (most queries) never wait. A slot measures the server's work, not a client's patience: an answer whose reader
// has not asked for more for LEND_AFTER_MS lends its slot to one waiting, and takes a slot again, first in line, when
// its reader asks (two clients reading 250 KB/s kept both slots, and a third heavy answer waited 35 s for its first byte).
import { aroundOutputs, type OutputHold, type RecordStream } from '../lib/format/stream.js';
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

/**
 * How long an answer's reader must have left the next move to the client before its slot is lent to one waiting. The
 * gap between a fast reader's asks is the time to write a piece to its socket (well under a millisecond on loopback);
 * lending at every gap would interleave every answer again. An answer lent out keeps what it has made (its generator's
 * state), not the thread.
 */
const LEND_AFTER_MS = 50;

/** How long a heavy answer may wait for a slot before its 503 with Retry-After: half the stall timeout's default. */
const HEAVY_WAIT_MS = 15_000;

/**
 * Lets at most `slots` heavy answers be produced at once; the others wait in arrival order, up to WAITING_PER_SLOT per
 * slot and maxWaitMs. A streamed answer whose reader is slow lends its slot while the reader has the next move.
 */
export class AnswerGate {
  private running = 0; // slots taken
  private readonly waiting: (() => void)[] = []; // answers not yet begun, in arrival order
  private readonly resuming: (() => void)[] = []; // answers begun whose reader asked for more after their slot was lent: served first
  private readonly holders = new Set<Turn>(); // turns holding a slot
  private lending: NodeJS.Timeout | undefined; // looks for idle holders while any answer waits

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
    return { running: this.running, waiting: this.waiting.length + this.resuming.length };
  }

  private async enter(signal: AbortSignal | undefined): Promise<OutputHold> {
    if (this.running >= this.slots) {
      if (this.waiting.length >= this.slots * WAITING_PER_SLOT) {
        throw new HttpError(503, `server busy: ${this.running + this.waiting.length} answers of millions of rows under way or waiting; retry later`, {
          'retry-after': '1',
        });
      }
      await this.queue(this.waiting, signal, this.maxWaitMs);
    } else this.running++;
    const turn: Turn = { holding: true, idle: false, moves: 0, seen: -1 };
    this.holders.add(turn);
    let left = false;
    return {
      leave: () => {
        if (left) return;
        left = true;
        if (turn.holding) this.giveBack(turn);
      },
      idle: () => {
        turn.idle = true;
        turn.moves++;
      },
      resume: () => {
        turn.idle = false;
        return turn.holding ? undefined : this.takeBack(turn, signal);
      },
    };
  }

  // a begun answer's reader asks for more after its slot was lent: a free slot, or the first one given back (no
  // refusal and no time limit: its 200 is out, and only answers being made, or lending soon, are ahead of it)
  private async takeBack(turn: Turn, signal: AbortSignal | undefined): Promise<void> {
    if (this.running < this.slots) this.running++;
    else await this.queue(this.resuming, signal);
    turn.holding = true;
    this.holders.add(turn);
  }

  // waits in `line` until a slot is passed to it; a client gone: 503 (its answer is dropped), past `maxMs`: 503 with Retry-After
  private queue(line: (() => void)[], signal: AbortSignal | undefined, maxMs?: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const leaveLine = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', gone);
        const at = line.indexOf(turn);
        if (at >= 0) line.splice(at, 1);
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
        reject(new HttpError(503, `server busy: no turn within ${maxMs! / 1000} s among answers of millions of rows; retry later`, { 'retry-after': '1' }));
      };
      if (signal?.aborted) return gone();
      if (maxMs !== undefined) timer = setTimeout(late, maxMs);
      signal?.addEventListener('abort', gone, { once: true });
      line.push(turn);
      this.lendIdle();
    });
  }

  // the slot passes straight to the next in line: an answer begun first, then the oldest waiting
  private giveBack(turn: Turn): void {
    turn.holding = false;
    this.holders.delete(turn);
    const next = this.resuming.shift() ?? this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  // While an answer waits, every LEND_AFTER_MS: a holder idle since the last look (idle now, no chunk handed over
  // since) has left the next move to its reader that long, and lends its slot
  private lendIdle(): void {
    if (this.lending) return;
    this.lending = setInterval(() => {
      for (const turn of this.holders) {
        if (turn.idle && turn.moves === turn.seen) this.giveBack(turn);
        else turn.seen = turn.moves;
      }
      if (this.waiting.length + this.resuming.length === 0) {
        clearInterval(this.lending);
        this.lending = undefined;
      }
    }, LEND_AFTER_MS).unref();
  }
}

// One heavy answer's use of a slot: `moves` counts the chunks handed over, `seen` is that count at the last look
interface Turn {
  holding: boolean;
  idle: boolean; // a chunk handed over, the reader not yet back for the next
  moves: number;
  seen: number;
}
