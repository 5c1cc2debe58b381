// SIGINT or SIGTERM during long work (copy, mirror): stop it cleanly so the next run resumes.

/** Calls `stop` on the first SIGINT or SIGTERM; the returned function forgets it (the run is over, the process may go on). */
export function onInterrupt(stop: () => void): () => void {
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
}
