// The explorer page at `/`: a built bundle (scripts/build-explorer.ts, run by `npm ci`) and the US state outlines, served
// open like /docs; every data request the page makes goes through the documented paths with the api-key header.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from '../lib/synthetic/demo.js';
import { compress, WholeResponse } from './answers.js';
import { HttpError } from './errors.js';
import type { IncomingRequest } from './incoming.js';

// a fixed list: no path from the request reaches the disk
const assets: Record<string, { file: (dir: string) => string; type: string }> = {
  '/': { file: (dir) => join(dir, 'index.html'), type: 'text/html; charset=utf-8' },
  '/explorer/app.js': { file: (dir) => join(dir, 'app.js'), type: 'text/javascript; charset=utf-8' },
  '/explorer/app.css': { file: (dir) => join(dir, 'app.css'), type: 'text/css; charset=utf-8' },
  '/explorer/states.json': { file: () => createRequire(import.meta.url).resolve('us-atlas/states-albers-10m.json'), type: 'application/json' },
};

const csp = "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'";

/** Where `npm ci` builds the bundle: dist/explorer under the package folder. */
function defaultExplorerDir(): string {
  return join(packageRoot(), 'dist', 'explorer');
}

/** Serves `/` and its assets from `dir`; undefined for every other path. */
export function createExplorer(dir = defaultExplorerDir()): (request: IncomingRequest, path: string) => Promise<Response | undefined> {
  const cache = new Map<string, Promise<Buffer>>();
  return async (request, path) => {
    const asset = Object.hasOwn(assets, path) ? assets[path] : undefined;
    if (!asset) return undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD')
      throw new HttpError(405, `method ${request.method} is not allowed on ${path}; allowed: GET`, { allow: 'GET, HEAD' });
    if (!cache.has(path)) {
      const reading = readFile(asset.file(dir));
      reading.catch(() => cache.delete(path)); // built later (npm ci): try again on the next request
      cache.set(path, reading);
    }
    let bytes: Buffer;
    try {
      bytes = await cache.get(path)!;
    } catch {
      throw new HttpError(404, `the explorer page is not built: run npm ci (or npm run build:explorer)`);
    }
    const headers: Record<string, string> = { 'content-type': asset.type };
    if (path === '/') headers['content-security-policy'] = csp;
    return compress(request, new WholeResponse(new Uint8Array(bytes), { headers }));
  };
}
