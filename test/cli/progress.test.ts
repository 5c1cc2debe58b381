// progressBar on a stderr that is not a terminal (a log file, CI): a line when work starts and one when it stops,
// nothing for a bar never started, and nothing that keeps running once stopped.
import { describe, expect, it } from 'vitest';
import { progressBar } from '../../cli/progress.js';
import { textSink } from './harness.js';

describe('progressBar', () => {
  it('writes the label, percentage, count and current item when started and when stopped', () => {
    const stderr = textSink(); // a pipe, not a terminal
    const idle = progressBar('idle', stderr.stream);
    idle.stop();
    const bar = progressBar('mirror', stderr.stream);
    bar.update(3, 10, 'LAKE MEAD');
    bar.update(7, 12, 'LAKE POWELL'); // the total may grow as work is found
    bar.stop();
    const timers = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const lines = stderr
      .text()
      .split('\n')
      .filter((l) => l.trim() !== '');
    expect(lines.some((l) => l.includes('idle'))).toBe(false);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^mirror \[[^\]]+\] 0% 0\/10 LAKE MEAD eta /);
    expect(lines[1]).toMatch(new RegExp(`^mirror \\[[^\\]]+\\] ${Math.floor((7 / 12) * 100)}% 7/12 LAKE POWELL eta `));
    // no timer of the bar is left running: a second bar started and stopped leaves the count where it was
    const again = progressBar('again', stderr.stream);
    again.update(1, 2, 'x');
    again.stop();
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(timers);
  });
});
