// Requests to an S3-compatible object store: SigV4-signed (aws4fetch, a small signer over fetch: the AWS SDK is tens of
// megabytes for the six calls used here), at most `concurrency` in flight, each attempt under a timeout, and failures
// that may pass (network errors, timeouts, 5xx, 429) retried with exponential backoff and jitter.
import { AwsClient } from 'aws4fetch';
import { StoreError } from '../errors.js';

export interface S3Options {
  endpoint?: string; // an S3-compatible server (path-style URLs); default AWS itself (virtual-hosted URLs)
  region?: string; // default us-east-1
  accessKeyId?: string; // none: unsigned requests (a public bucket)
  secretAccessKey?: string;
  sessionToken?: string;
  concurrency?: number; // requests in flight at once (default 16)
  attempts?: number; // tries per request (default 4)
  timeoutMs?: number; // per attempt, until the whole body has arrived (default 30 s)
  backoffMs?: number; // first retry's delay, doubled each time (default 100 ms)
  listPageSize?: number; // keys per listing page (default: the server's, 1000 on S3)
}

/** The options the standard AWS environment gives (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, AWS_REGION, keys, token). */
export function s3OptionsFromEnv(env: NodeJS.ProcessEnv): S3Options {
  return {
    endpoint: env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined,
    accessKeyId: env.AWS_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY || undefined,
    sessionToken: env.AWS_SESSION_TOKEN || undefined,
  };
}

/** A response read whole. `retried` says an earlier attempt may have reached the server (and taken effect). */
export interface S3Response {
  status: number;
  headers: Headers;
  body: Uint8Array;
  retried: boolean;
}

interface S3Request {
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Uint8Array;
}

/** One bucket's client. */
export class S3Client {
  readonly endpoint: string; // for messages
  skewMs = 0; // this machine's clock minus the server's (from Date headers): object times are converted with it
  private readonly aws: AwsClient | undefined;
  private readonly base: string;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly bucket: string,
    private readonly options: S3Options,
  ) {
    const region = options.region ?? 'us-east-1';
    this.base = options.endpoint ? `${options.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(bucket)}` : `https://${bucket}.s3.${region}.amazonaws.com`;
    this.endpoint = options.endpoint ?? `https://s3.${region}.amazonaws.com`;
    this.aws = options.accessKeyId
      ? new AwsClient({
          accessKeyId: options.accessKeyId,
          secretAccessKey: options.secretAccessKey ?? '',
          sessionToken: options.sessionToken,
          region,
          service: 's3',
          retries: 0,
        }) // retried here, under our timeout and concurrency bound
      : undefined;
  }

  /** Sends a request (retrying what may pass) and reads its body; any status is returned, the caller judges it. */
  async send(method: string, key: string, request: S3Request = {}): Promise<S3Response> {
    const url = new URL(`${this.base}/${key.split('/').map(encodeURIComponent).join('/')}`);
    if (key === '') url.pathname = url.pathname.replace(/\/$/, '') || '/';
    for (const [k, v] of Object.entries(request.query ?? {})) url.searchParams.set(k, v);
    const attempts = Math.max(1, this.options.attempts ?? 4);
    await this.acquire();
    try {
      for (let attempt = 1; ; attempt++) {
        let failure: string;
        try {
          const init: RequestInit = {
            method,
            headers: request.headers,
            body: request.body as Uint8Array<ArrayBuffer> | undefined,
            signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
          };
          const response = this.aws ? await this.aws.fetch(url.toString(), init) : await fetch(url, init);
          const body = new Uint8Array(await response.arrayBuffer());
          const date = Date.parse(response.headers.get('date') ?? '');
          if (Number.isFinite(date)) this.skewMs = Date.now() - date;
          if (response.status < 500 && response.status !== 429) return { status: response.status, headers: response.headers, body, retried: attempt > 1 };
          failure = `${response.status} ${errorCode(body)}`;
        } catch (error) {
          const e = error as Error & { cause?: { code?: string } };
          failure =
            e.name === 'TimeoutError'
              ? `no answer within ${this.options.timeoutMs ?? 30_000} ms`
              : `${e.message}${e.cause ? ` (${e.cause.code ?? (e.cause as Error).message})` : ''}`;
        }
        if (attempt >= attempts)
          throw new StoreError(`object storage ${this.endpoint}: ${method} ${this.bucket}/${key} failed after ${attempts} attempts: ${failure}`);
        const delay = (this.options.backoffMs ?? 100) * 2 ** (attempt - 1);
        await new Promise((resolve) => setTimeout(resolve, delay / 2 + Math.random() * delay));
      }
    } finally {
      this.release();
    }
  }

  /**
   * Every object under a prefix (with `delimiter`, those directly under it only), page after page. ListObjects (v1)
   * with markers: served by S3, MinIO, R2 and s3rver alike (s3rver's v2 fails on Node 17+ when it must make a
   * continuation token: it encrypts it with DES, which OpenSSL 3 no longer offers).
   */
  async list(prefix: string, delimiter?: string): Promise<{ key: string; bytes: number; modified: number }[]> {
    const objects: { key: string; bytes: number; modified: number }[] = [];
    let token: string | undefined;
    do {
      const query: Record<string, string> = { prefix };
      if (delimiter) query.delimiter = delimiter;
      if (this.options.listPageSize) query['max-keys'] = String(this.options.listPageSize);
      if (token) query.marker = token;
      const response = await this.send('GET', '', { query });
      if (response.status !== 200) throw this.failure('list', prefix, response);
      const xml = new TextDecoder().decode(response.body);
      for (const [, entry] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        objects.push({ key: xmlText(entry!, 'Key'), bytes: Number(xmlText(entry!, 'Size')), modified: Date.parse(xmlText(entry!, 'LastModified')) });
      }
      const truncated = xmlText(xml, 'IsTruncated') === 'true';
      const next = xmlText(xml, 'NextMarker') || objects[objects.length - 1]?.key; // NextMarker comes only with a delimiter
      if (truncated && (next === undefined || next === token)) throw this.failure('list past', token ?? prefix, response); // no progress: never loop
      token = truncated ? next : undefined;
    } while (token);
    return objects;
  }

  /** A StoreError describing an unexpected answer. */
  failure(what: string, key: string, response: S3Response): StoreError {
    return new StoreError(`object storage ${this.endpoint}: cannot ${what} ${this.bucket}/${key}: ${response.status} ${errorCode(response.body)}`);
  }

  private async acquire(): Promise<void> {
    if (this.active < (this.options.concurrency ?? 16)) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve)); // the slot is handed over by release()
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

/** The S3 error code of an error body (`<Code>NoSuchKey</Code>`), or ''. */
export function errorCode(body: Uint8Array): string {
  return xmlText(new TextDecoder().decode(body.subarray(0, 4096)), 'Code');
}

function xmlText(xml: string, tag: string): string {
  const found = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml)?.[1] ?? '';
  return found.replace(/&(lt|gt|quot|apos|amp|#(\d+)|#x([0-9a-fA-F]+));/g, (_, name: string, dec?: string, hex?: string) =>
    dec
      ? String.fromCodePoint(Number(dec))
      : hex
        ? String.fromCodePoint(parseInt(hex, 16))
        : ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[name]!,
  );
}
