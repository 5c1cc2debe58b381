// What every OGC answer needs of its request: the absolute base URL (QGIS follows links only when absolute), the
// format asked for, and the query parameters that each link must carry on (f, units, as_of; never a key).
import type { RecordStream } from '../../lib/format/stream.js';
import { HttpError } from '../errors.js';
import type { IncomingRequest } from '../incoming.js';

/** The prefix every OGC path lives under. */
export const OGC_PREFIX = '/ogc';

/** The query parameter a client that cannot set headers (a QGIS layer URL) may carry its key in; the access log redacts it. */
export const KEY_PARAMETER = 'api_key';

/** The parameters a link keeps from the request that led to it: a key is not one (a link is copied, logged and shared). */
const carried = ['f', 'units', 'as_of'] as const;

/** Where links point: the configured public URL, else the request's Host (and X-Forwarded-Proto/-Host only when trusted). */
export interface LinkBase {
  publicUrl?: string; // e.g. https://evap.example.org/api, no trailing slash (--public-url)
  trustProxy?: boolean; // a proxy in front sets X-Forwarded-Proto and X-Forwarded-Host (--trust-proxy)
}

export interface OgcContext {
  base: string; // e.g. http://host:8080/ogc
  html: boolean; // f=html, or a browser's Accept without f=json
  params: URLSearchParams;
  admit: (stream: RecordStream, weight?: number) => RecordStream; // the server's admission of heavy answers (admission.ts); weight: a stored row's cost against daily JSON's
  /** An absolute link to `path` (under the prefix) with the carried parameters and `extra` ones. */
  href(path: string, extra?: Record<string, string | undefined>): string;
}

// a Host header names a host and port only: anything else would be written into every link
const hostPattern = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

export function contextOf(request: IncomingRequest, admit: OgcContext['admit'] = (stream) => stream, basePath = '', links: LinkBase = {}): OgcContext {
  const params = request.url.searchParams;
  const base = `${links.publicUrl ?? requestOrigin(request, links.trustProxy === true)}${basePath}${OGC_PREFIX}`;
  const f = params.get('f');
  if (f !== null && !['json', 'html', 'geojson', 'GeoJSON', 'covjson', 'CoverageJSON'].includes(f))
    throw new HttpError(400, `f must be json, html, GeoJSON or CoverageJSON, not ${JSON.stringify(f.slice(0, 50))}`);
  const html = f === 'html' || (f === null && /\btext\/html\b/.test(request.headers.get('accept') ?? ''));
  return {
    base,
    html,
    params,
    admit,
    href(path, extra = {}) {
      const query = new URLSearchParams();
      for (const name of carried) {
        const value = params.get(name);
        if (value !== null && !(name in extra)) query.set(name, value);
      }
      for (const [name, value] of Object.entries(extra)) if (value !== undefined && name !== KEY_PARAMETER) query.set(name, value); // paging passes the query on
      const text = query.toString();
      return `${base}${path}${text === '' ? '' : `?${text}`}`;
    },
  };
}

// without a public URL: the Host the client asked for; a forwarded host or scheme only from a proxy we were told is there
function requestOrigin(request: IncomingRequest, trustProxy: boolean): string {
  const forwarded = (name: string) => (trustProxy ? request.headers.get(name)?.split(',')[0]?.trim() : undefined);
  const host = forwarded('x-forwarded-host') || request.headers.get('host') || request.url.host;
  if (!hostPattern.test(host)) throw new HttpError(400, 'the Host header is not a host name and port');
  const proto = forwarded('x-forwarded-proto');
  return `${proto === 'https' || proto === 'http' ? proto : request.url.protocol.replace(':', '')}://${host}`;
}

/** A link object as OGC API documents write them. */
interface Link {
  href: string;
  rel: string;
  type?: string;
  title?: string;
}

export function link(href: string, rel: string, type?: string, title?: string): Link {
  return { href, rel, ...(type === undefined ? {} : { type }), ...(title === undefined ? {} : { title }) };
}

/** The JSON and HTML alternates of a document at `path`, `self` being the one asked for. */
export function selfLinks(ctx: OgcContext, path: string, jsonType = 'application/json', extra: Record<string, string | undefined> = {}): Link[] {
  return [
    link(ctx.href(path, { ...extra, f: ctx.html ? 'html' : undefined }), 'self', ctx.html ? 'text/html' : jsonType),
    link(ctx.href(path, { ...extra, f: ctx.html ? 'json' : 'html' }), 'alternate', ctx.html ? jsonType : 'text/html'),
  ];
}
