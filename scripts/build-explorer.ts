// Bundles the explorer page (explorer/*.ts with uPlot, d3-geo, topojson-client) into dist/explorer: run by
// `npm ci` (prepare) and by the browser test; esbuild comes with tsx, so nothing is downloaded.
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { packageRoot } from '../lib/synthetic/demo.js';

/** Writes index.html, app.js and app.css of the explorer into `outDir` (default dist/explorer). */
export async function buildExplorer(outDir = join(packageRoot(), 'dist', 'explorer')): Promise<string> {
  const source = join(packageRoot(), 'explorer');
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: { app: join(source, 'main.ts') },
    outdir: outDir,
    bundle: true,
    format: 'esm',
    minify: true,
    target: ['chrome109', 'firefox115', 'safari15'],
    legalComments: 'eof', // the bundled packages' licence notices stay with them,
    logLevel: 'warning',
  });
  await copyFile(join(source, 'index.html'), join(outDir, 'index.html'));
  return outDir;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = await buildExplorer(process.argv[2]);
  process.stderr.write(`explorer built into ${outDir}\n`);
}
