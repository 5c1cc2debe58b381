// describeError: what the CLI prints for a failure: the message and its causes, with error codes, each once.
import { createServer } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeError } from '../../cli/command.js';

describe('describeError', () => {
  it('joins the messages of up to five causes with ": "', () => {
    const message = fc.stringMatching(/^[a-z]{3,8}( [a-z]{3,8}){0,2}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(message, { minLength: 1, maxLength: 8 }).filter((ms) => ms.every((m, i) => ms.every((o, j) => i === j || !o.includes(m)))),
        (messages) => {
          const error = messages.reduceRight<Error | undefined>((cause, m) => new Error(m, { cause }), undefined);
          expect(describeError(error)).toBe(messages.slice(0, 5).join(': '));
        },
      ),
    );
  });

  it("names a cause's code unless its message has it, and skips a message already shown", async () => {
    const listener = createServer();
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    const { port } = listener.address() as { port: number };
    await new Promise((done) => listener.close(done)); // a port just given back: nobody listens
    const refused = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e); // a real "fetch failed" hiding ECONNREFUSED
    expect(describeError(refused)).toMatch(/^fetch failed: .*ECONNREFUSED/);
    const withCode = Object.assign(new Error('connect failed'), { code: 'ECONNRESET' });
    expect(describeError(new Error('mirror stopped', { cause: withCode }))).toBe('mirror stopped: connect failed (ECONNRESET)');
    expect(describeError(new Error('no such file', { cause: new Error('no such file') }))).toBe('no such file');
    expect(describeError('plain text')).toBe('plain text');
  });
});
