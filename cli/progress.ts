// A progress bar on stderr for long work (cli-progress), silent when stderr is not a terminal unless asked.
import { Presets, SingleBar } from 'cli-progress';
import type { Output } from './io.js';

/** A progress callback `(done, total, what)` drawing one bar; `stop()` when finished. */
export function progressBar(label: string, stream: Output): { update: (done: number, total: number, what: string) => void; stop: () => void } {
  const bar = new SingleBar(
    {
      format: `${label} [{bar}] {percentage}% {value}/{total} {what} eta {eta_formatted}`,
      stream,
      noTTYOutput: true,
      notTTYSchedule: 5000,
      hideCursor: true,
    },
    Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total, what) {
      if (!started) {
        bar.start(total, 0, { what });
        started = true;
      }
      bar.setTotal(total);
      bar.update(done, { what });
    },
    stop: () => started && bar.stop(),
  };
}
