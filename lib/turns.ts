// Long work in a server process gives the event loop a turn now and then, so other requests are answered meanwhile.

/** Values (records x columns) made into Arrow vectors per turn of the event loop: some tens of milliseconds. */
export const PIECE_VALUES = 1 << 15;

/** A turn of the event loop for whatever else is waiting (a promise alone would not give one). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
