// A forcing CSV (a `date` column and the API's variable names) into columns, each bad cell refused with its line and
// column. csv-parse does the quoting; the checks here are the model's.
import { parse } from 'csv-parse/sync';
import { parseDay } from '../dates.js';
import { InvalidParameterError } from '../errors.js';
import { type ForcingColumns, type ForcingVariable, forcingVariables } from './run.js';

/** A cell's problem, named by line (1 = the header) and column. */
export class ForcingError extends InvalidParameterError {
  constructor(
    readonly line: number,
    readonly column: string | undefined,
    problem: string,
  ) {
    super('forcing', `line ${line}${column === undefined ? '' : `, column ${column}`}: ${problem}`, 'malformed');
  }
}

/** Reads the CSV text. Empty cells, NA and NaN are missing values; other columns than the model's are ignored. */
export function parseForcingCsv(text: string): ForcingColumns {
  let rows: string[][];
  let lines: number[]; // the line each row ends on
  try {
    const parsed = parse(text.replace(/^\uFEFF/, ''), { skip_empty_lines: true, trim: true, info: true }) as unknown as {
      record: string[];
      info: { lines: number };
    }[];
    rows = parsed.map((row) => row.record);
    lines = parsed.map((row) => row.info.lines);
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    throw new ForcingError(line, undefined, (error as Error).message.replace(/^Invalid Record Length: /, ''));
  }
  const header = rows[0];
  if (!header) throw new ForcingError(1, undefined, 'the file is empty: it needs a header line with date and the forcing variables');
  const dateAt = header.indexOf('date');
  if (dateAt < 0) throw new ForcingError(1, undefined, `no date column (the header is ${header.join(',')})`);
  for (const name of header) if (header.indexOf(name) !== header.lastIndexOf(name)) throw new ForcingError(1, name, 'the column appears twice');
  const wanted = forcingVariables.filter((name) => header.includes(name));
  const columns: ForcingColumns = { date: dates(rows, lines, dateAt) };
  for (const name of wanted) columns[name] = numbers(rows, lines, header.indexOf(name), name);
  return columns;
}

// each date YYYY-MM-DD, the day after the one before
function dates(rows: string[][], lines: number[], at: number): string[] {
  const out: string[] = [];
  let previous = Number.NaN;
  for (let r = 1; r < rows.length; r++) {
    const cell = rows[r]![at]!;
    let day: number;
    try {
      day = parseDay(cell, 'date');
    } catch (error) {
      throw new ForcingError(lines[r]!, 'date', (error as Error).message);
    }
    if (r > 1 && day !== previous + 1)
      throw new ForcingError(lines[r]!, 'date', `${cell} does not follow ${rows[r - 1]![at]} (the dates must be consecutive days)`);
    previous = day;
    out.push(cell);
  }
  if (out.length === 0) throw new ForcingError(1, undefined, 'the file has a header but no days');
  return out;
}

function numbers(rows: string[][], lines: number[], at: number, name: ForcingVariable): Float64Array {
  const values = new Float64Array(rows.length - 1);
  for (let r = 1; r < rows.length; r++) {
    const cell = rows[r]![at]!;
    if (cell === '' || cell === 'NA' || cell === 'NaN') values[r - 1] = Number.NaN;
    else {
      const value = Number(cell);
      if (!Number.isFinite(value) || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(cell)) {
        throw new ForcingError(lines[r]!, name, `${JSON.stringify(cell.slice(0, 40))} is not a number`);
      }
      values[r - 1] = value;
    }
  }
  return values;
}
