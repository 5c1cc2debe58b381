// Answers whose whole body is already in memory: the node adapter writes them at once with a Content-Length,
// skipping the web-stream plumbing (Readable.fromWeb, pipeline), which costs more than a small answer itself.

/** A Response whose body the adapter may send directly; still a plain web Response for any other runtime. */
export class WholeResponse extends Response {
  readonly whole: string | Uint8Array<ArrayBuffer>; // the body as given, before it became a stream

  constructor(body: string | Uint8Array<ArrayBuffer>, init: ResponseInit) {
    super(body, init);
    this.whole = body;
  }
}
