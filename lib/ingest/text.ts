// Input files as streams of text: sources, decoding, CSV rows and JSON objects with the line each starts on.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';

/** One input of an ingest: a name for messages and a way to read its bytes (opened afresh on each call). */
export interface IngestSource {
  name: string; // shown with every problem, usually the file path
  open(): AsyncIterable<Uint8Array | string>;
}

/** A source over text already in memory. */
export function textSource(name: string, text: string): IngestSource {
  return {
    name,
    async *open() {
      yield text;
    },
  };
}

/** A malformed file: not CSV or JSON that can be read on, at a line. */
export class SyntaxProblem extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'SyntaxProblem';
  }
}

/** Decodes UTF-8 chunks into text chunks (a chunk boundary may split a character). */
export async function* decodeChunks(chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: false });
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (text.length > 0) yield text;
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield rest;
}

/** The first character that is not white space (or a byte order mark), or '' for an empty file. */
export async function firstCharacter(source: IngestSource): Promise<string> {
  for await (const chunk of decodeChunks(source.open())) {
    const match = /[^\s\uFEFF]/.exec(chunk);
    if (match) return match[0];
  }
  return '';
}

/** Rows of a CSV file as arrays of fields, each with the line it starts on (1 is the header). */
export async function* csvRows(chunks: AsyncIterable<string>): AsyncGenerator<{ fields: string[]; line: number }> {
  const source = Readable.from(chunks);
  // every line ending is a record delimiter (a CRLF file with one LF line made a record of '\r')
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, record_delimiter: ['\r\n', '\n', '\r'] });
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  // csv-parse gives the line a record ends on, and counts a quoted CRLF as two: the start is counted here instead,
  // from the line breaks of the records before it (inside their fields, and their delimiters) and the empty lines
  let breaks = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { empty_lines: number } }>) {
      yield { fields: record, line: 1 + breaks + info.empty_lines };
      breaks += 1;
      for (const field of record) breaks += field.match(/\r\n|\r|\n/g)?.length ?? 0;
    }
  } catch (error) {
    const e = error as Error & { empty_lines?: number };
    throw new SyntaxProblem(1 + breaks + (e.empty_lines ?? 0), `malformed CSV: ${e.message.replace(/ at line \d+/, '')}`); // its own line count drifts
  } finally {
    source.destroy();
  }
}

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const QUOTE = 34;
const BACKSLASH = 92;
const NEWLINE = 10;
const COMMA = 44;

/**
 * The objects of a JSON array (or of a sequence of objects, as in NDJSON), parsed one at a time so that a
 * large file is never one string in memory; each comes with the line it starts on.
 */
/** The longest JSON object an ingest reads as one record. */
export const MAX_RECORD_CHARS = 1 << 20;

export async function* jsonObjects(chunks: AsyncIterable<string>): AsyncGenerator<{ value: Record<string, unknown>; line: number; duplicate?: string }> {
  let mode: 'start' | 'array' | 'sequence' | 'done' = 'start';
  let depth = 0; // nesting inside the current element
  let inString = false;
  let escaped = false;
  let line = 1;
  let startLine = 0;
  let parts: string[] = [];
  let expectValue = true; // in an array: after '[' or ',' an element may come
  let held = 0; // characters of the current element kept across chunks
  let keys = 0; // keys of the current element's own object (JSON.parse keeps only the last of a repeated one)
  let keyNext = false; // at depth 1, the next string is a key
  for await (const chunk of chunks) {
    let from = depth > 0 ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === NEWLINE) line++;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
        continue;
      }
      if (depth > 0) {
        if (c === QUOTE) {
          inString = true;
          if (depth === 1 && keyNext) [keys, keyNext] = [keys + 1, false];
        } else if (c === COMMA && depth === 1) keyNext = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
        else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          if (--depth === 0) {
            parts.push(chunk.slice(from, i + 1));
            const text = parts.join('');
            const value = parseElement(text, startLine);
            const duplicate = Object.keys(value).length < keys ? repeatedKey(text) : undefined;
            yield { value, line: startLine, ...(duplicate === undefined ? {} : { duplicate }) };
            parts = [];
            from = -1;
            held = 0;
            expectValue = false;
          }
        }
        continue;
      }
      if (c === 32 || c === 9 || c === 13 || c === NEWLINE || c === 0xfeff) continue;
      if (mode === 'start' && c === OPEN_BRACKET) {
        mode = 'array';
        continue;
      }
      if (mode === 'start') mode = 'sequence';
      if (mode === 'array' && c === CLOSE_BRACKET && (expectValue === false || parts.length === 0)) {
        mode = 'done';
        continue;
      }
      if (mode === 'array' && c === COMMA && !expectValue) {
        expectValue = true;
        continue;
      }
      if (c === OPEN_BRACE && mode !== 'done' && (mode === 'sequence' || expectValue)) {
        depth = 1;
        from = i;
        startLine = line;
        [keys, keyNext] = [0, true];
        continue;
      }
      throw new SyntaxProblem(line, `malformed JSON: unexpected ${JSON.stringify(chunk[i])}; expected an array of objects`);
    }
    if (depth > 0) {
      parts.push(chunk.slice(from));
      held += chunk.length - from;
      // a record is a name, a date and a few dozen values: one that grows past this is not a record, and is not held
      if (held > MAX_RECORD_CHARS) throw new SyntaxProblem(startLine, `malformed JSON: the object starting here is over ${MAX_RECORD_CHARS} characters`);
    } else held = 0;
  }
  if (depth > 0 || inString) throw new SyntaxProblem(startLine, 'malformed JSON: the file ends inside an object');
  if (mode === 'array') throw new SyntaxProblem(line, 'malformed JSON: the array is not closed');
}

// The first key that an object's text repeats (the text is valid JSON: JSON.parse read it).
function repeatedKey(text: string): string | undefined {
  const seen = new Set<string>();
  let depth = 0;
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = i + 1;
      while (text.charCodeAt(end) !== QUOTE) end += text.charCodeAt(end) === BACKSLASH ? 2 : 1;
      if (depth === 1 && keyNext) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (seen.has(key)) return key;
        seen.add(key);
        keyNext = false;
      }
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) [depth, keyNext] = [depth + 1, depth === 0];
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    else if (c === COMMA && depth === 1) keyNext = true;
  }
  return undefined;
}

function parseElement(text: string, line: number): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new SyntaxProblem(line, `malformed JSON: ${(error as Error).message}`);
  }
}
