// Whether a process of this machine still exists (signal 0 checks without sending), for the tests and the soak bench
// that kill workers and watch their primary.
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
