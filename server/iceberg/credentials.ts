// The api-key as catalog and S3 clients send it, read into the header the key ring checks: a bearer token
// (`Authorization: Bearer <key>`, the REST catalog's way), an S3 access key id (`Authorization: AWS4-HMAC-SHA256
// Credential=<key>/...`, or `X-Amz-Credential` in a presigned URL), or the api-key header itself. An S3 signature is
// not checked: the server keeps only the keys' digests, so the key is a bearer secret here as in the api-key header.
import type { IncomingRequest } from '../incoming.js';
import { keyHeader } from '../keys/auth.js';

/** The key a request presents, by whichever of the ways above it came; null when none. */
export function presentedKey(request: Pick<IncomingRequest, 'headers' | 'url'>): string | null {
  const header = request.headers.get(keyHeader);
  if (header) return header;
  const authorization = request.headers.get('authorization') ?? '';
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (bearer) return bearer[1]!;
  const signed = /^AWS4-HMAC-SHA256\s+.*?Credential=([^/,\s]+)\//i.exec(authorization);
  if (signed) return signed[1]!;
  const presigned = request.url.searchParams.get('X-Amz-Credential');
  return presigned ? presigned.split('/')[0]! : null;
}

/** Headers whose api-key is the key the request presents (what KeyRing.check reads). */
export function keyHeaders(request: Pick<IncomingRequest, 'headers' | 'url'>): { headers: { get(name: string): string | null } } {
  const key = presentedKey(request);
  return { headers: { get: (name) => (name.toLowerCase() === keyHeader ? key : null) } };
}
