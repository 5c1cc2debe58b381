// Text from strangers (key requests, names in a store) made safe to show: for a terminal, control, format and
// separator characters are written as visible escapes (U+009B starts a terminal command, U+202E reverses what follows);
// for a spreadsheet, a CSV cell that would start a formula is made text.

const invisible = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** `text` with every control, format (bidi, zero-width) and line/paragraph separator character as `\u{XXXX}`. */
export function visibleText(text: string): string {
  return text.replace(invisible, (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`);
}

/** A CSV cell a spreadsheet reads as text: one starting with = + - @ or a tab or return gets a leading apostrophe (OWASP). */
export function spreadsheetText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
