// Which names a database may take: each is the first segment of its paths (`/twdb/...`), so none may be one the API
// already answers (a test checks this list against every route).
import { operations } from '../lib/operations.js';

// the server's own paths, beside the operations' (which a new operation, such as the forecasts', adds to by itself)
const serverSegments = ['docs', 'openapi.json', 'ogc', 'auth', 'explorer', 'databases', 'iceberg'];

/** First path segments of the API: a database named so would hide them. */
export const RESERVED_DATABASE_NAMES: readonly string[] = [...new Set([...Object.values(operations).map((o) => o.path.split('/')[1]!), ...serverSegments])];

const namePattern = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** Why `name` cannot name a database (undefined: it can). */
function databaseNameProblem(name: string): string | undefined {
  if (RESERVED_DATABASE_NAMES.includes(name.toLowerCase()))
    return `database name ${JSON.stringify(name)} is a path of the API (/${name}/...); choose another, such as ${name.toLowerCase()}db`;
  if (!namePattern.test(name))
    return `database name ${JSON.stringify(name.slice(0, 60))} must be 1 to 40 lower-case letters, digits, '-' or '_', starting with a letter or digit`;
  return undefined;
}

/** Throws an Error naming the problem when these names cannot be served together. */
export function checkDatabaseNames(names: readonly string[]): void {
  if (names.length === 0) throw new Error('no database to serve');
  const seen = new Set<string>();
  for (const name of names) {
    const problem = databaseNameProblem(name);
    if (problem) throw new Error(problem);
    if (seen.has(name)) throw new Error(`database name ${JSON.stringify(name)} is given twice`);
    seen.add(name);
  }
}
