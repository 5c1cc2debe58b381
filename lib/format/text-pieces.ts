// Answer text is made in strings of at most about TEXT_PIECE_CHARS. V8 places a string larger than its largest regular
// object (128 KiB) in the large-object space, a page of its own: 17.5 MB made as Latin-1 strings of 64 KiB took 1.2 ms
// here, as strings of 128-400 KiB 14-16 ms (node 20), a third of a warm answer of every reservoir on one date at 44,000.

/** The length past which an answer's text is cut into another string (at a row's end). */
export const TEXT_PIECE_CHARS = 1 << 16;

/**
 * The non-empty `texts` joined by `separator` into strings of at most about TEXT_PIECE_CHARS (a longer text stays one
 * string of its own), in order; the caller puts the separator between the strings it is given. A list, not a
 * generator: most batches are one text (every reservoir for a year: a batch a name), given back as it is.
 */
export function joinedPieces(texts: readonly string[], separator: string): readonly string[] {
  if (texts.length === 1) return texts[0] === '' ? [] : texts;
  const pieces: string[] = [];
  let group: string[] = [];
  let length = 0;
  for (const text of texts) {
    if (text === '') continue;
    if (length > 0 && length + text.length > TEXT_PIECE_CHARS) {
      pieces.push(group.length === 1 ? group[0]! : group.join(separator));
      group = [];
      length = 0;
    }
    group.push(text);
    length += text.length + separator.length;
  }
  if (length > 0) pieces.push(group.length === 1 ? group[0]! : group.join(separator));
  return pieces;
}
