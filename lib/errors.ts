// Typed errors of the library; the server maps each class to one status in one place.

// In a notebook cell an error of the library reads as one line, "NotFoundError: reservoir not found: ...": Deno's
// kernel shows an error's stack and tslab prints it with util.inspect, and the frames inside the library tell a
// notebook user nothing. Scripts and servers keep the full stack.

/** True inside a Jupyter kernel of Deno or tslab. */
function inNotebookKernel(): boolean {
  const deno = (globalThis as { Deno?: { jupyter?: unknown } }).Deno;
  return deno?.jupyter !== undefined || '__tslab__' in globalThis;
}

/** Makes the error's stack its one line "<name>: <message>" when running in a notebook kernel. */
function shortenInNotebook(error: Error): void {
  if (!inNotebookKernel()) return;
  const line = `${error.name}: ${error.message}`;
  error.stack = line;
  Object.defineProperty(error, Symbol.for('nodejs.util.inspect.custom'), { value: () => line });
}

/** Why a value was refused: not among the allowed values, empty where one is needed, not a date, too many values, or malformed otherwise. */
export type InvalidReason = 'not-allowed' | 'empty' | 'not-a-date' | 'too-many' | 'malformed';

/** A parameter value is malformed or not allowed: names the parameter, the bad value and what is allowed. */
export class InvalidParameterError extends Error {
  constructor(
    readonly parameter: string, // the parameter's name as documented, e.g. "start_date"
    message: string,
    readonly reason: InvalidReason = 'malformed',
    readonly value?: unknown, // the value given, where the code that refused it had it (a list's bad entry, not the whole list); undefined: not known or none given
    readonly wire?: { parameter: string; message: string }, // where the library renamed a wire parameter to the caller's option (start_date -> start): the wire's words, for the server and the CLI
  ) {
    super(message);
    this.name = 'InvalidParameterError';
    shortenInNotebook(this);
  }
}

/** A reservoir or station name that the store does not hold. */
export class NotFoundError extends Error {
  constructor(
    readonly parameter: string, // RES_NAMES or STA_NAMES: what lists the names there are
    readonly missing: readonly string[],
    message: string,
    readonly elsewhere: readonly string[] = [], // the missing names that are of the other kind (a station asked as a reservoir)
  ) {
    super(message);
    this.name = 'NotFoundError';
    shortenInNotebook(this);
  }
}

/** The store on disk is unreadable or inconsistent (bad manifest, checksum mismatch, missing file). */
export class StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    shortenInNotebook(this);
  }
}

/** A store writer used wrongly by its caller: rows out of order, an unknown variable, names without metadata. */
export class WriterMisuseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WriterMisuseError';
  }
}
