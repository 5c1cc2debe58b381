// A store in an S3-compatible bucket as a Storage. The commit point is a PUT with `If-None-Match: *` of a new
// snapshots/<sequence>.json (one writer only can create it) and manifest.json moves forward by `If-Match` on its ETag;
// an endpoint that ignores those conditions is found by a probe before the first conditional write, and refused.
// Markers (reader leases, live writers, the lock) cannot name a process another machine could check, so they are
// objects refreshed while held and judged dead once not refreshed for MARKER_TTL_MS.
import { randomBytes } from 'node:crypto';
import { StoreError } from '../errors.js';
import { errorCode, S3Client, type S3Options, type S3Response, s3OptionsFromEnv } from './s3.js';
import type { Storage, StoredFile } from './storage.js';

/** How long a marker (lease, writer, lock) counts as held after its last refresh; holders refresh it every third of that. */
const MARKER_TTL_MS = 90_000;

// object times (Last-Modified) and the clock skew (from Date) come in whole seconds: an object's time on this machine's
// clock is taken as the latest it can be, so that an object is never judged older than it is (to be deleted, or a
// marker to be dead); it may be judged up to 2 s younger
const LATEST_MS = 1_000;

const unreleased = new Set<() => Promise<void>>(); // markers still held: released when the process runs out of work, as a folder's are at exit
let exitHook = false;
const probes = new Map<string, Promise<void>>(); // endpoint and bucket -> its conditional-write probe, once per process

/** Whether a store location names a bucket. */
export function isBucketLocation(location: string): boolean {
  return location.startsWith('s3://');
}

/** The storage of `s3://bucket/prefix`, configured by the AWS environment (and options, which take precedence). */
export function bucketStorage(location: string, env: NodeJS.ProcessEnv, options: S3Options & { markerTtlMs?: number } = {}): Storage {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(location);
  if (!match) throw new StoreError(`not an object storage location: ${JSON.stringify(location)} (expected s3://bucket/prefix)`);
  const [, bucket, rawPrefix] = match as unknown as [string, string, string];
  const prefix = rawPrefix.replace(/\/+$/, '');
  const client = new S3Client(bucket, { ...s3OptionsFromEnv(env), ...options });
  const ttl = options.markerTtlMs ?? MARKER_TTL_MS;
  const key = (path: string) => (prefix ? `${prefix}/${path}` : path);
  const unprefix = (k: string) => (prefix ? k.slice(prefix.length + 1) : k);
  const tagOf = (response: S3Response) => response.headers.get('etag') ?? '';
  const conditional = () => {
    const id = `${client.endpoint} ${bucket}`;
    let probe = probes.get(id);
    if (!probe) {
      probe = probeConditionalWrites(client, key(`.evap-probe/${randomBytes(6).toString('hex')}`));
      probes.set(id, probe);
      probe.catch(() => probes.delete(id)); // a failed probe (the endpoint down) is tried again; a refusal is found again each time
    }
    return probe;
  };
  // a refused conditional PUT that had been retried may be our own earlier attempt having taken effect
  const holdsText = async (path: string, text: string) => (await storage.readText(path))?.text === text;

  const storage: Storage = {
    location: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
    async read(path, offset, length) {
      if (length <= 0) return new Uint8Array(0);
      const response = await client.send('GET', key(path), { headers: { range: `bytes=${offset}-${offset + length - 1}` } });
      if (response.status === 206) return response.body.subarray(0, length);
      if (response.status === 200) return response.body.subarray(offset, offset + length); // the range was ignored
      if (response.status === 416) return new Uint8Array(0); // starts past the end
      throw client.failure('read store file', key(path), response);
    },
    async readText(path) {
      const response = await client.send('GET', key(path));
      if (response.status === 404 && errorCode(response.body) !== 'NoSuchBucket') return undefined; // a missing bucket is no empty store
      if (response.status !== 200) throw client.failure('read', key(path), response);
      return { text: new TextDecoder().decode(response.body), tag: tagOf(response) };
    },
    async stamp(path) {
      const response = await client.send('HEAD', key(path));
      if (response.status === 404) return undefined;
      if (response.status !== 200) throw client.failure('look up', key(path), response);
      return tagOf(response);
    },
    async write(path, bytes) {
      const body = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes instanceof Uint8Array ? bytes : await gathered(bytes);
      const response = await client.send('PUT', key(path), { body });
      if (response.status !== 200) throw client.failure('write', key(path), response);
    },
    async create(path, text) {
      await conditional();
      const response = await client.send('PUT', key(path), { body: new TextEncoder().encode(text), headers: { 'if-none-match': '*' } });
      if (response.status === 200) return true;
      if (refused(response)) return response.retried && (await holdsText(path, text));
      throw client.failure('create', key(path), response);
    },
    async replace(path, text, expected) {
      if (expected === undefined) {
        await storage.write(path, text);
        return true;
      }
      await conditional();
      const response = await client.send('PUT', key(path), { body: new TextEncoder().encode(text), headers: { 'if-match': expected } });
      if (response.status === 200) return true;
      if (refused(response) || response.status === 404) return response.retried && (await holdsText(path, text));
      throw client.failure('replace', key(path), response);
    },
    async list(folder) {
      const objects = folder === '' ? await client.list(key(''), '/') : await client.list(`${key(folder)}/`);
      return objects.map((o) => ({ path: unprefix(o.key), bytes: o.bytes, mtimeMs: o.modified + client.skewMs + LATEST_MS }));
    },
    async exists(path) {
      return (await storage.stamp(path)) !== undefined;
    },
    async remove(path) {
      const response = await client.send('DELETE', key(path));
      if (response.status !== 204 && response.status !== 200 && response.status !== 404) throw client.failure('delete', key(path), response);
    },
    withLock: (path, work) =>
      withBucketLock(storage, path, ttl, work, async () => {
        const response = await client.send('HEAD', key(path));
        if (response.status !== 200) return undefined;
        return { tag: tagOf(response), mtimeMs: Date.parse(response.headers.get('last-modified') ?? '') + client.skewMs + LATEST_MS };
      }),
    async mark(path) {
      const text = `${process.pid} ${randomBytes(4).toString('hex')}`;
      await storage.write(path, text);
      const timer = setInterval(() => void storage.write(path, text).catch(() => undefined), ttl / 3).unref();
      const release = async () => {
        clearInterval(timer);
        unreleased.delete(release);
        await storage.remove(path);
      };
      unreleased.add(release);
      if (!exitHook) {
        exitHook = true;
        process.on('beforeExit', () => void Promise.all([...unreleased].map((r) => r().catch(() => undefined))));
      }
      return release;
    },
    async markerAlive(file: StoredFile) {
      return Date.now() - file.mtimeMs < ttl;
    },
  };
  return storage;
}

function refused(response: S3Response): boolean {
  return response.status === 412 || response.status === 409; // PreconditionFailed; ConditionalRequestConflict (a concurrent write won)
}

/**
 * Checks that the endpoint honours conditional PUTs, as AWS S3, MinIO and R2 do: over an object just written, a PUT with
 * `If-None-Match: *` and one with a wrong `If-Match` must both be refused. Without that, two writers could each
 * believe they published the same snapshot number, so nothing is committed to such an endpoint.
 */
async function probeConditionalWrites(client: S3Client, probe: string): Promise<void> {
  const body = new TextEncoder().encode('evap conditional-write probe\n');
  const first = await client.send('PUT', probe, { body });
  if (first.status !== 200) throw client.failure('write the conditional-write probe', probe, first);
  try {
    const again = await client.send('PUT', probe, { body, headers: { 'if-none-match': '*' } });
    const wrongTag = await client.send('PUT', probe, { body, headers: { 'if-match': '"00000000000000000000000000000000"' } });
    if (!refused(again) || !(refused(wrongTag) || wrongTag.status === 404)) {
      throw new StoreError(
        `the object store at ${client.endpoint} (bucket ${client.bucket}) ignores conditional writes: a PUT with ${!refused(again) ? 'If-None-Match: * over an existing object' : 'a wrong If-Match'} was answered ${!refused(again) ? again.status : wrongTag.status}, not 412. ` +
          'evap will not publish snapshots there, since two writers could overwrite each other; use a store that honours If-None-Match and If-Match on PUT (AWS S3, MinIO, Cloudflare R2)',
      );
    }
  } finally {
    await client.send('DELETE', probe).catch(() => undefined);
  }
}

/**
 * The commit lock in a bucket: created with If-None-Match, refreshed by If-Match while held, and taken over (If-Match on
 * the ETag judged stale) once not refreshed for MARKER_TTL_MS. Exclusion is what the conditions make it; the commit
 * itself does not rely on the lock (its point is the exclusive creation of the snapshot file), vacuum does.
 */
async function withBucketLock<T>(
  storage: Storage,
  path: string,
  ttl: number,
  work: () => Promise<T>,
  look: () => Promise<{ tag: string; mtimeMs: number } | undefined>,
): Promise<T> {
  const text = `${process.pid} ${randomBytes(8).toString('hex')}`;
  for (let attempt = 0; !(await storage.create(path, text)); attempt++) {
    if (attempt > 1000) throw new StoreError(`cannot take the store lock ${storage.location}/${path}: held by another writer for too long`);
    const held = await look(); // its tag and age in one answer, so the tag judged stale is the one replaced
    if (held && !(await storage.markerAlive({ path, bytes: 0, mtimeMs: held.mtimeMs })) && (await storage.replace(path, text, held.tag))) break;
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
  }
  const refresh = setInterval(() => {
    void storage
      .readText(path)
      .then((now) => now?.text === text && storage.replace(path, text, now.tag))
      .catch(() => undefined);
  }, ttl / 3).unref();
  try {
    return await work();
  } finally {
    clearInterval(refresh);
    if ((await storage.readText(path).catch(() => undefined))?.text === text) await storage.remove(path); // ours still, not a taker's
  }
}

// a streamed file's pieces as one body: one PUT needs its length first (a multipart upload would bound the memory)
async function gathered(pieces: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const all: Uint8Array[] = [];
  for await (const piece of pieces) all.push(piece);
  return Buffer.concat(all);
}
