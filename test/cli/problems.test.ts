// printProblems on a stderr as a user reads it (a pipe): the first 20 rejected rows, then the count of the rest.
import { describe, expect, it } from 'vitest';
import { printProblems } from '../../cli/problems.js';
import { textSink } from './harness.js';

describe('printProblems', () => {
  it('prints file:line: reason for at most 20 problems, then how many more were rejected', async () => {
    const cases = [
      { problems: 25, count: 30 }, // more problems kept than shown, and more rejected than kept
      { problems: 3, count: 3 },
      { problems: 20, count: 20 },
      { problems: 0, count: 0 },
      { problems: 2, count: 7 },
    ];
    const stderr = textSink();
    for (const { problems, count } of cases) {
      const kept = Array.from({ length: problems }, (_, i) => ({
        file: 'data/rows 1.csv',
        line: i + 2,
        reason: 'non-numeric value "x" in column "NetE (mm)"',
      }));
      printProblems(stderr.stream, kept, count);
      stderr.stream.write('--\n');
    }
    const expected = cases.map(({ problems, count }) => {
      const lines = Array.from({ length: Math.min(problems, 20) }, (_, i) => `data/rows 1.csv:${i + 2}: non-numeric value "x" in column "NetE (mm)"\n`);
      if (count > Math.min(problems, 20)) lines.push(`... and ${count - Math.min(problems, 20)} more rejected\n`);
      return `${lines.join('')}--\n`;
    });
    expect(stderr.text()).toBe(expected.join(''));
  });
});
