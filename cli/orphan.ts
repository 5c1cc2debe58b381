// `npx evap serve` under a service manager: SIGTERM to npx ends npx (and the shell it runs evap under) but is not passed
// on, so the server would be left running, reparented. Under npm, the server watches its parent and stops as SIGTERM
// stops it (finishing the requests under way) once the parent is gone.

/** Whether npm (npx, npm exec, npm run) started this process: only then is a vanished parent a reason to stop. */
export function startedByNpm(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_command !== undefined || env.npm_lifecycle_event !== undefined;
}

/**
 * Sends this process SIGTERM once its parent is no longer `parent` (it died and the process was reparented). Give the
 * parent as it was at start: read after a slow start, it may already be the new one, and the change never be seen.
 */
export function stopWhenOrphaned(parent: number, intervalMs = 500): () => void {
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM'); // the server's own SIGTERM handling drains and exits
  }, intervalMs);
  timer.unref(); // never what keeps the process alive
  return () => clearInterval(timer);
}
