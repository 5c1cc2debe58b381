// Answers whose whole body is already in memory: the node adapter writes them at once with a Content-Length,
// skipping the web-stream plumbing (Readable.fromWeb, pipeline), which costs more than a small answer itself.

/** The headers of a request as a replay check reads them (Headers.get's result: values of a repeated name joined by ', '). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** Whether a request with these headers would get the same answer again (WholeResponse.replay). */
export type ReplayCheck = (headers: HeaderReader) => boolean;

/**
 * A Response whose body the adapter sends directly; still a plain web Response for any other reader. The web body is
 * made only when something reads it (fetchFrom's callers, a test): the node adapter never does, and building it for
 * every answer cost about 6% of a one-reservoir query over HTTP.
 */
export class WholeResponse extends Response {
  readonly whole: string | Uint8Array<ArrayBuffer>; // the body as given
  /**
   * Set on a kept answer (cached-answers.ts): whether a later GET of the same target, carrying these headers, would be
   * answered with the very same status, headers and bytes. The node adapter then sends those again without the
   * handler (server/process/replays.ts); a layer that adds a condition of its own (the key, the rate) wraps it.
   */
  replay?: ReplayCheck;
  #read: Response | undefined; // the web body, once asked for

  constructor(body: string | Uint8Array<ArrayBuffer>, init: ResponseInit) {
    super(null, init);
    this.whole = body;
  }

  /** The same answer as a Response made of its body, built on first use. */
  private get read(): Response {
    this.#read ??= new Response(this.whole, { status: this.status, statusText: this.statusText, headers: this.headers });
    return this.#read;
  }

  override text(): Promise<string> {
    return this.read.text();
  }
  override json(): Promise<unknown> {
    return this.read.json();
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.read.arrayBuffer();
  }
  override blob(): Promise<Blob> {
    return this.read.blob();
  }
  override formData(): Promise<FormData> {
    return this.read.formData();
  }
  override clone(): WholeResponse {
    return new WholeResponse(this.whole, { status: this.status, statusText: this.statusText, headers: new Headers(this.headers) });
  }
}

// body and bodyUsed are accessors of Response.prototype (typed as properties, so not overridable in the class body)
Object.defineProperty(WholeResponse.prototype, 'body', {
  get(this: WholeResponse) {
    return (this as unknown as { read: Response }).read.body;
  },
});
Object.defineProperty(WholeResponse.prototype, 'bodyUsed', {
  get(this: WholeResponse) {
    return (this as unknown as { read: Response }).read.bodyUsed;
  },
});
// bytes() where the runtime has it (Node 22 and later)
Object.defineProperty(WholeResponse.prototype, 'bytes', {
  value(this: WholeResponse) {
    return (this as unknown as { read: { bytes(): Promise<Uint8Array> } }).read.bytes();
  },
});
