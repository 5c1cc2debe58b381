// A request answered before its body was all read (refused for want of room, or cut off with a 408) is closed the
// way nginx's lingering_close closes one: the answer, the server's FIN, then the rest of the body read and dropped for
// up to LINGER_MS. Closed at once, the client's next bytes meet a reset, and a client still sending (as an upload
// does) gets EPIPE and loses the answer it has not read yet: 5 uploads of 5 in test/server/process/intake.test.ts,
// and about 1 in 40 of the soak's slow uploaders.
import type { IncomingMessage } from 'node:http';

const LINGER_MS = 2000;

/** Makes the close that follows this request's answer a lingering one; the body's bytes must be read (dropped) meanwhile. */
export function lingerOnClose(incoming: IncomingMessage): void {
  const socket = incoming.socket;
  // node:http ends a connection whose answer said `Connection: close` with destroySoon(): FIN, then destroy
  socket.destroySoon = () => {
    socket.end();
    socket.once('end', () => socket.destroy()); // the client closed its side: nothing more to drop
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}
