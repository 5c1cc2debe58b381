// Answers whose whole body is already in memory: the node adapter writes them at once with a Content-Length,
// skipping the web-stream plumbing (Readable.fromWeb, pipeline), which costs more than a small answer itself.

const wholeBodies = new WeakMap<Response, string | Uint8Array<ArrayBuffer>>();

/** A Response whose body the adapter may send directly; still a plain web Response for any other runtime. */
export function wholeResponse(body: string | Uint8Array<ArrayBuffer>, init: ResponseInit): Response {
  const response = new Response(body, init);
  wholeBodies.set(response, body);
  return response;
}

/** The body of a Response made by wholeResponse, or undefined for a streamed one. */
export function wholeBodyOf(response: Response): string | Uint8Array<ArrayBuffer> | undefined {
  return wholeBodies.get(response);
}
