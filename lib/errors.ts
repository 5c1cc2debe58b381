// Typed errors of the library; the server maps each class to one status in one place.

/** A parameter value is malformed or not allowed: names the parameter, the bad value and what is allowed. */
export class InvalidParameterError extends Error {
  constructor(
    readonly parameter: string, // wire name of the parameter, e.g. "start_date"
    message: string,
    readonly kind = 'value_error', // short machine-readable kind, as in FastAPI's "type"
    readonly location: 'query' | 'body' = 'query',
  ) {
    super(message);
    this.name = 'InvalidParameterError';
  }
}

/** A reservoir or station name that the store does not hold. */
export class NotFoundError extends Error {
  constructor(
    readonly parameter: string,
    readonly missing: readonly string[],
    message: string,
  ) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** The store on disk is unreadable or inconsistent (bad manifest, checksum mismatch, missing file). */
export class StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** A store writer used wrongly by its caller: rows out of order, an unknown variable, names without metadata. */
export class WriterMisuseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WriterMisuseError';
  }
}
