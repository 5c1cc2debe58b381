// The picture of a chart cell that the README shows: the last chart cell of docs/notebooks/losses.ipynb (its code and
// the SVG its last run saved), drawn by Debian's chromium into docs/notebooks/chart-cell.png.
//   npx tsx scripts/notebook-picture.ts
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const folder = join(import.meta.dirname, '..', 'docs', 'notebooks');
type Cell = { cell_type: string; source: string | string[]; outputs?: { data?: Record<string, string | string[]> }[] };
const joined = (t: string | string[]) => (Array.isArray(t) ? t.join('') : t);
const cells = (JSON.parse(await readFile(join(folder, 'losses.ipynb'), 'utf8')) as { cells: Cell[] }).cells;
const cell = cells.filter((c) => c.outputs?.some((o) => o.data?.['image/svg+xml'])).at(-1);
if (!cell) throw new Error('losses.ipynb has no saved chart: run UPDATE_NOTEBOOKS=1 npx vitest run test/docs/notebooks.test.ts');
const svg = joined(cell.outputs!.find((o) => o.data?.['image/svg+xml'])!.data!['image/svg+xml']!);
const code = joined(cell.source).replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);
const page = `<!doctype html><body style="margin:0;background:#fff;font:13px sans-serif">
<div id="cell" style="display:inline-block;padding:12px">
<pre style="margin:0 0 8px;padding:8px 12px;background:#f5f5f5;border:1px solid #e0e0e0;font:12px monospace;width:736px;white-space:pre-wrap">${code}</pre>
${svg}</div></body>`;
const profile = await mkdtemp(join(tmpdir(), 'evap-picture-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  viewport: { width: 800, height: 600 },
});
try {
  const tab = await browser.newPage();
  await tab.setContent(page);
  await tab.locator('#cell').screenshot({ path: join(folder, 'chart-cell.png') });
} finally {
  await browser.close();
  await rm(profile, { recursive: true, force: true });
}
