// GET /auth/request_key, the public service's way to ask for a key: the request is appended to a requests file for
// the operator (`evap keys requests`, then `evap keys new --for ID`), bounded in size and rate; the answer never
// repeats what was sent.
import { randomBytes } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';
import { InvalidParameterError } from '../../lib/errors.js';
import { WholeResponse } from '../answers.js';
import { HttpError } from '../errors.js';
import type { IncomingRequest } from '../incoming.js';
import { createRateLimiter, type RateLimiter } from './rate.js';

/** The path, as the public documentation gives it. */
export const REQUEST_KEY_PATH = '/auth/request_key';

/** One request for a key, as stored (one JSON object a line). */
interface KeyRequest {
  id: string;
  received: string; // ISO time
  name: string;
  email: string;
  justification: string;
}

interface KeyRequestOptions {
  maxFileBytes?: number; // past this size the file takes no more requests: 503 until the operator clears it (default 1 MiB)
  perMinute?: number; // requests accepted a minute, from everyone together (default KEY_REQUESTS_PER_MINUTE)
  limiter?: RateLimiter; // counters kept elsewhere (a cluster's primary, so the limit is the server's, not each worker's)
}

/** Key requests accepted a minute, from everyone together. */
export const KEY_REQUESTS_PER_MINUTE = 10;

/** The fields of a key request (query parameters, all required): the longest value accepted and what each is. */
export const keyRequestFields = {
  name: { max: 200, description: 'Your name' },
  email: { max: 254, description: 'Where the operator sends the key' },
  justification: { max: 2000, description: 'What you will use the data for' },
} as const;

// What a field may not hold: control characters (C0 and C1), line and paragraph separators (a label line in the keys
// file would end there for some readers) and the bidirectional overrides and isolates that reorder what an operator reads.
const unsafeInField = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}\u202a-\u202e\u2066-\u2069]/u;

/** The handler of GET /auth/request_key, appending to `file`; without a file every request is refused (503). */
export function createKeyRequests(file: string | undefined, options: KeyRequestOptions = {}): (request: IncomingRequest) => Promise<Response> {
  const maxFileBytes = options.maxFileBytes ?? 2 ** 20;
  const limiter = options.limiter ?? createRateLimiter(options.perMinute ?? KEY_REQUESTS_PER_MINUTE);
  let appending = Promise.resolve(); // one append at a time, so the size bound holds
  return async (request) => {
    if (request.method !== 'GET') throw new HttpError(405, `method ${request.method} is not allowed on ${REQUEST_KEY_PATH}; allowed: GET`, { allow: 'GET' });
    if (file === undefined) throw new HttpError(503, 'this server takes no key requests (it has no requests file); ask its operator for a key');
    const entry = { id: randomBytes(6).toString('hex'), received: new Date().toISOString() } as KeyRequest;
    for (const [field, { max }] of Object.entries(keyRequestFields) as [keyof typeof keyRequestFields, { max: number }][]) {
      const value = (request.url.searchParams.getAll(field).pop() ?? '').trim(); // the last, as for every other parameter
      if (value === '') throw new InvalidParameterError(field, `${field} is required`, 'empty');
      if (value.length > max) throw new InvalidParameterError(field, `${field} is longer than ${max} characters`, 'too-many', value);
      if (unsafeInField.test(value))
        throw new InvalidParameterError(field, `${field} contains a control, line-separator or text-direction character`, 'malformed', value);
      entry[field] = value;
    }
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(entry.email)) throw new InvalidParameterError('email', 'email is not an email address', 'malformed', entry.email);
    const wait = await limiter('all');
    if (wait > 0) throw new HttpError(429, `too many key requests; retry in ${wait} s`, { 'retry-after': String(wait) });
    const line = `${JSON.stringify(entry)}\n`;
    const done = appending.then(async () => {
      const size = await stat(file).then(
        (s) => s.size,
        () => 0,
      );
      if (size + Buffer.byteLength(line) > maxFileBytes) throw new HttpError(503, 'the key request queue is full; try again later or ask the operator');
      await appendLine(file, line);
    });
    appending = done.catch(() => {});
    await done;
    const body = { message: 'request received: the operator will send the key to the email address given', request_id: entry.id };
    return new WholeResponse(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

// One line appended whole or not at all: a full disk that took part of it would glue the next request's line to the
// torn one. A torn line left by a crash is ended first, for the same reason.
async function appendLine(file: string, line: string): Promise<void> {
  const handle = await open(file, 'a+', 0o600);
  try {
    const { size } = await handle.stat();
    const last = Buffer.alloc(1);
    const torn = size > 0 && (await handle.read(last, 0, 1, size - 1)).bytesRead === 1 && last[0] !== 0x0a;
    try {
      await handle.appendFile(torn ? `\n${line}` : line);
    } catch (error) {
      await handle.truncate(size).catch(() => undefined);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EDQUOT')
        throw new HttpError(503, 'the server cannot store key requests now (its disk is full); try again later', { 'retry-after': '60' });
      throw error;
    }
  } finally {
    await handle.close();
  }
}

/** The requests in a requests file, oldest first (unreadable lines are skipped); none when there is no file. */
export async function readKeyRequests(file: string): Promise<KeyRequest[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const requests: KeyRequest[] = [];
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as KeyRequest;
      if (typeof entry.id === 'string' && typeof entry.email === 'string') requests.push(entry);
    } catch {
      // a torn last line of a crashed append
    }
  }
  return requests;
}
