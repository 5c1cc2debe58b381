// A plain page for a browser (f=html): the document's title, its links, and its content as indented JSON.
import { WholeResponse } from '../answers.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function htmlPage(title: string, body: Record<string, unknown>): Response {
  type Link = { href: string; rel: string; title?: string; type?: string };
  const links = Array.isArray(body.links) ? [...(body.links as Link[])] : [];
  // a list of collections links to each one's page
  for (const c of Array.isArray(body.collections) ? (body.collections as { title: string; links: Link[] }[]) : []) {
    const own = c.links.find((l) => l.rel === 'self');
    if (own) links.push({ ...own, rel: 'collection', title: c.title });
  }
  const list = links
    .map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.title ?? l.rel)}</a> <small>(${escapeHtml(l.rel)})</small></li>`)
    .join('\n');
  const shown = { ...body };
  delete shown.links;
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:.5rem;overflow:auto;white-space:pre-wrap}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${typeof body.description === 'string' ? `<p>${escapeHtml(body.description)}</p>` : ''}
<ul>
${list}
</ul>
<pre>${escapeHtml(JSON.stringify(shown, null, 2))}</pre>
</body></html>
`;
  return new WholeResponse(page, {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" },
  });
}
