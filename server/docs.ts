// The open pages: /openapi.json and /docs, an interactive Swagger UI served offline from its assets copied into
// dist/docs at build time (scripts/build-docs.ts), or from swagger-ui-dist in a clone that has not been built.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packageRoot } from '../lib/synthetic/demo.js';
import { WholeResponse } from './answers.js';
import { HttpError } from './errors.js';

const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const page = (note: string, base: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Reservoir evaporation API</title>
  <link rel="stylesheet" href="${base}/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="${base}/docs/favicon-32x32.png">
</head>
<body>
  ${note}<div id="swagger-ui"></div>
  <script src="${base}/docs/swagger-ui-bundle.js"></script>
  <script src="${base}/docs/init.js"></script>
</body>
</html>
`;

// no validator badge (it would call validator.swagger.io) and no ?url= override of the document
const init = (base: string) => `window.ui = SwaggerUIBundle({
  url: '${base}/openapi.json',
  dom_id: '#swagger-ui',
  validatorUrl: null,
  queryConfigEnabled: false,
  deepLinking: true,
  tryItOutEnabled: true,
});
`;

const csp = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'";

/**
 * Serves /docs, its assets and /openapi.json; undefined for every other path. `base` is the path the database is served
 * under (`/twdb`; '' at the root): the page's links and the document's `servers` name it, so "Try it out" asks that one.
 */
export function createDocs(openapi: object, note?: string, base = ''): (path: string, method: string) => Promise<Response | undefined> {
  const openapiText = JSON.stringify(base === '' ? openapi : { ...openapi, servers: [{ url: base }] });
  // a line above the interface, in the page itself, so it is read even before (or without) the script
  const html = page(
    note === undefined ? '' : `<p role="note" style="margin:0;padding:8px 16px;background:#fff3cd;font:600 14px sans-serif">${escapeHtml(note)}</p>\n  `,
    base,
  );
  const dir = swaggerDir();
  const cache = new Map<string, Promise<Buffer>>();
  return async (path, method) => {
    if (path !== '/openapi.json' && path !== '/docs' && !path.startsWith('/docs/')) return undefined;
    if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, `method ${method} is not allowed on ${path}; allowed: GET`, { allow: 'GET, HEAD' });
    if (path === '/openapi.json') return new WholeResponse(openapiText, { headers: { 'content-type': 'application/json' } });
    if (path === '/docs') return new WholeResponse(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp } });
    const name = path.slice('/docs/'.length);
    if (name === 'init.js') return new WholeResponse(init(base), { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
    const type = Object.hasOwn(assets, name) ? assets[name] : undefined; // a fixed list: no path from the request reaches the disk
    if (type === undefined) throw new HttpError(404, `no such file: ${path}`);
    if (!cache.has(name)) cache.set(name, readFile(join(dir, name)));
    const bytes = await cache.get(name)!;
    return new WholeResponse(new Uint8Array(bytes), { headers: { 'content-type': type, 'cache-control': 'public, max-age=86400' } });
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

// the built copy the package ships; a development checkout before `npm run build` has the package itself
function swaggerDir(): string {
  const built = join(packageRoot(), 'dist', 'docs');
  if (existsSync(join(built, 'swagger-ui-bundle.js'))) return built;
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}
