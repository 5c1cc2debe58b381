// `npm pack` and `npm publish` (prepack, postpack): the packed package.json without the clone's `prepare` scripts,
// which build dist/ and make the demo stores on `npm ci` in a clone; npm lists a packed `prepare` to every consumer
// as an install script to approve, though it never runs there. postpack puts the clone's package.json back.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const manifest = join(root, 'package.json');
const kept = join(root, '.package.json.clone'); // the clone's own, while the packed one is in place

if (process.argv[2] === 'strip') {
  if (existsSync(kept)) throw new Error(`${kept} exists: a pack was interrupted; move it back to package.json first`);
  const text = readFileSync(manifest, 'utf8');
  const json = JSON.parse(text) as { scripts: Record<string, string> };
  for (const name of ['prepare', 'postprepare', 'prepack', 'postpack']) delete json.scripts[name];
  writeFileSync(kept, text);
  // renamed into place: a process reading package.json meanwhile sees one whole file or the other
  writeFileSync(`${manifest}.packed`, `${JSON.stringify(json, null, 2)}\n`);
  renameSync(`${manifest}.packed`, manifest);
} else if (process.argv[2] === 'restore') {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  throw new Error('usage: tsx scripts/pack-manifest.ts strip|restore');
}
