// Connections that have stalled: no byte read or written for a span while the client has the next move (it neither
// sends nor reads) are closed, freeing their slots (--stall-timeout-ms).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Closes the connections that have read and written nothing for `stallMs` while the client had the next move (checked
 * four times in that span, so one goes after `stallMs` to 1.25 × `stallMs`). Node's own `server.setTimeout` does the
 * same by setting each socket's timer again for every request: about 6 µs of a kept answer's 44 µs of CPU (measured
 * with perf). `owed(socket)`: the oldest response the socket is owed; `receiving(req)`: whether its body is arriving
 * under the intake. Returns the stop.
 */
export function sweepStalled(
  server: Server,
  stallMs: number,
  owed: (socket: Socket) => ServerResponse | undefined,
  receiving: (req: IncomingMessage) => boolean,
): () => void {
  const seen = new Map<Socket, { moved: number; since: number }>();
  server.on('connection', (socket: Socket) => {
    seen.set(socket, { moved: 0, since: performance.now() });
    socket.once('close', () => seen.delete(socket));
  });
  // the server's move: a request received whole, its answer waiting for a heavy turn or being made, nothing held back
  // for the client to read (counting bytes alone, 8 of 18 answers waiting their turn were cut with no response); or a
  // body arriving under the intake's watch, whose deadlines answer it with a 408 (the sweep closed such uploads silently)
  const serversMove = (socket: Socket) => {
    const response = owed(socket);
    if (!response) return false;
    return response.req.complete ? socket.writableLength === 0 : receiving(response.req);
  };
  const timer = setInterval(
    () => {
      const now = performance.now();
      for (const [socket, last] of seen) {
        const moved = socket.bytesRead + socket.bytesWritten;
        if (moved !== last.moved || serversMove(socket)) Object.assign(last, { moved, since: now });
        else if (now - last.since >= stallMs) socket.destroy();
      }
    },
    Math.max(10, stallMs / 4),
  ).unref();
  return () => clearInterval(timer);
}
