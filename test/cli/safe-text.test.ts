// visibleText and spreadsheetText on any text: nothing a terminal acts on is left, what was printable is kept in order,
// and no cell starts a formula; checked against Unicode's own categories through the regex engine.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spreadsheetText, visibleText } from '../../cli/safe-text.js';

const anyText = fc.string({
  unit: fc.oneof(fc.constantFrom('\u009b', '\u202e', '\u2028', '\u200b', '\u0007', '\n', '=', '+', '@', '-'), fc.string({ unit: 'grapheme', maxLength: 1 })),
});

describe('visibleText', () => {
  it('leaves no control, format or separator character, keeps every other one in order, and names each removed one', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const shown = visibleText(text);
        expect(shown).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
        const decoded = shown.replace(/\\u\{([0-9A-F]{4,6})\}/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)));
        if (!text.includes('\\u{')) expect(decoded).toBe(text); // the escapes say exactly what was there
      }),
    );
  });
});

describe('spreadsheetText', () => {
  it('never starts a cell with a formula character, and changes nothing else', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const cell = spreadsheetText(text);
        expect(cell).not.toMatch(/^[=+\-@\t\r]/);
        expect(cell === text || cell === `'${text}`).toBe(true);
      }),
    );
  });
});
