// A hand-over of row groups from the loop that makes an issue's rows to a file's stream writer: `push` waits while one
// is still untaken, so the maker never runs ahead of the writer by more than a row group.
export class Channel<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private closed = false;
  private failure: unknown;
  private wake: (() => void) | undefined; // the taker, waiting for an item
  private room: (() => void) | undefined; // the giver, waiting for room

  async push(item: T): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    this.items.push(item);
    this.wake?.();
    while (this.items.length > 1 && this.failure === undefined) await new Promise<void>((resolve) => (this.room = resolve));
    if (this.failure !== undefined) throw this.failure;
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  /** The taker failed: a giver waiting (or to come) gets its error. */
  fail(error: unknown): void {
    this.failure = error ?? new Error('the stream writer failed');
    this.room?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      if (this.items.length > 0) {
        const item = this.items.shift()!;
        this.room?.();
        yield item;
      } else if (this.closed) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
