// Copies the Swagger UI assets that /docs serves into dist/docs at build time, with their licence, so that the package
// ships them and a consumer installs neither swagger-ui-dist nor its install-time analytics (@scarf/scarf).
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../lib/synthetic/demo.js';

/** The files /docs serves, and the licence and notice that travel with them (Apache-2.0). */
export const swaggerFiles = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png', 'LICENSE', 'NOTICE'] as const;

/** Copies the Swagger UI files from the installed swagger-ui-dist (a development dependency) into `outDir` (default dist/docs). */
export async function buildDocsAssets(outDir = join(packageRoot(), 'dist', 'docs')): Promise<string> {
  const from = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  await mkdir(outDir, { recursive: true });
  await Promise.all(swaggerFiles.map((name) => copyFile(join(from, name), join(outDir, name))));
  return outDir;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = await buildDocsAssets(process.argv[2]);
  process.stderr.write(`Swagger UI assets copied into ${outDir}\n`);
}
