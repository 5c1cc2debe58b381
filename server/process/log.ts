// Log lines: one access line per request (no headers, so no keys) and error lines.

/** Where log lines go. */
export interface Logger {
  info(line: string): void; // access lines and start-up lines
  error(line: string): void; // internal errors, aborted streams
}

/**
 * Lines gathered and written together once per turn of the event loop (or when 64 KiB are waiting), and at once at
 * exit: stdout to a file or a pipe is written synchronously, and a write call per request was 6% of the server's
 * time on a cached answer. A line waits at most one turn; none is lost when the process exits, even by process.exit.
 */
function batchedLines(write: (text: string, lines: number) => void, maxChars = 1 << 16): (line: string) => void {
  let waiting: string[] = [];
  let chars = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (waiting.length === 0) return;
    const text = waiting.join('');
    const lines = waiting.length;
    waiting = [];
    chars = 0;
    write(text, lines);
  };
  process.on('exit', flush);
  return (line) => {
    waiting.push(`${line}\n`);
    chars += line.length + 1;
    if (chars >= maxChars) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}

// The access log's stdout, once its reader is gone (a `| tee` or `| logger` killed: EPIPE): a pipe's reader does not
// come back, so later lines are counted, not written
const stdoutLog = { broken: false, lost: 0, onBroken: (): void => {} };

function writeStdout(text: string, lines: number): void {
  if (stdoutLog.broken) stdoutLog.lost += lines;
  else
    process.stdout.write(text, (error) => {
      if (!error) return;
      stdoutLog.lost += lines;
      stdoutBroken(error);
    });
}

function stdoutBroken(error: NodeJS.ErrnoException): void {
  if (stdoutLog.broken) return;
  stdoutLog.broken = true;
  process.stderr.write(`access log: stdout cannot be written (${error.code ?? error.message}); serving on, counting the lines lost\n`);
  stdoutLog.onBroken();
}

/**
 * Keeps a server serving when stdout, its access log, cannot be written: stdout's error (without a listener, the end
 * of the process) says so once on stderr and calls `onBroken` (--exit-on-log-loss stops the server there). Called
 * again, it only replaces `onBroken`, called at once if stdout is already gone.
 */
export function keepServingWithoutLog(onBroken: () => void = () => {}): void {
  stdoutLog.onBroken = onBroken;
  if (process.stdout.listeners('error').includes(stdoutBroken)) {
    if (stdoutLog.broken) onBroken();
  } else process.stdout.on('error', stdoutBroken);
}

/** Access lines not written since the start because stdout could not take them (keepServingWithoutLog). */
export function lostLogLines(): number {
  return stdoutLog.lost;
}

/** Access lines to stdout (a batch per turn of the event loop; counted, not written, once stdout is gone), errors to stderr at once. */
export const consoleLogger: Logger = {
  info: batchedLines(writeStdout),
  error: (line) => process.stderr.write(`${line}\n`),
};

/** What one access line records. */
interface AccessEntry {
  method: string;
  target: string; // the request target as received: path and query
  status: number | undefined; // undefined: no status line was sent (the client went away first), written `-`
  ms: number;
  bytes: number; // body bytes written (after compression)
  aborted: boolean; // the response did not finish (client went away, or a stream failed mid-way)
}

/** `<ISO time> <method> <path?query> <status or -> <ms>ms <bytes>B [aborted]`, with secret-looking query values redacted. */
export function formatAccess(entry: AccessEntry, now?: Date): string {
  const method = entry.method === 'GET' ? 'GET' : clean(entry.method, 16);
  const line = `${now ? now.toISOString() : isoNow()} ${method} ${redactedTarget(entry.target)} ${entry.status ?? '-'} ${entry.ms.toFixed(1)}ms ${entry.bytes}B`;
  return entry.aborted ? `${line} aborted` : line;
}

// the time of the line, formatted once per millisecond
let lastMs = Number.NaN;
let lastIso = '';
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

// A dashboard asks the same targets again and again: each is redacted and escaped once, the last 256 kept.
const redacted = new Map<string, string>();
function redactedTarget(target: string): string {
  let line = redacted.get(target);
  if (line === undefined) {
    line = redactTarget(target);
    if (target.length <= 2000) {
      if (redacted.size >= 256) redacted.delete(redacted.keys().next().value!);
      redacted.set(target, line);
    }
  }
  return line;
}

// Keys belong in the api-key header, but a client may put one in the query by mistake: never write such values.
const secretName = /key|token|secret|password|auth/i;

/** The request target with the values of key-like query parameters replaced by `***`, clipped to 2000 characters. */
export function redactTarget(target: string): string {
  const q = target.indexOf('?');
  if (q < 0) return clean(target, 2000);
  // pairs split on '&' and on ';' (which some parsers also take), names percent-decoded, as a server would read them
  const query = target
    .slice(q + 1)
    .split(/([&;])/)
    .map((pair, i) => {
      if (i % 2 === 1) return pair; // a separator
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(decodeURIComponent(name.replace(/\+/g, ' '))); // twice: %252D is %2D is -
      } catch {
        decoded = name.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))); // what a lenient parser reads
      }
      if (!secretName.test(decoded)) return pair;
      return eq >= 0 ? `${name}=***` : '***'; // no '=': the secret may be in the name itself (api-key%3Dsecret)
    })
    .join('');
  return clean(`${target.slice(0, q)}?${query}`, 2000);
}

// one line per request: no spaces or control characters from the client can break the line's fields
function clean(text: string, max: number): string {
  const safe = text.replace(/[\s\p{C}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  if (safe.length <= max) return safe;
  const cut = /[\uD800-\uDBFF]/.test(safe[max - 1]!) ? max - 1 : max; // never half a surrogate pair (not UTF-8 once written)
  return `${safe.slice(0, cut)}...`;
}

/** The ready line, and where the explorer page is. */
export function announce(url: string, workers?: number): void {
  console.log(`listening on ${url}${workers ? ` (${workers} workers)` : ''}`);
  console.log(`explorer: ${url}/ (map and charts; asks for the api-key once per browser tab)`);
}
