// tslab (the notebook kernel) depends on its own copy of TypeScript, @tslab/typescript-for-tslab, which npm hoists
// beside `typescript` with the same `tsc` and `tsserver` commands; npm links the first one by path, tslab's older
// compiler. Point both commands back at the project's `typescript` (run before the build, at every install).
import { existsSync, lstatSync, readlinkSync, symlinkSync, unlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

const bin = join(import.meta.dirname, '..', 'node_modules', '.bin');
for (const command of ['tsc', 'tsserver']) {
  const link = join(bin, command);
  const target = relative(bin, join(bin, '..', 'typescript', 'bin', command));
  if (!existsSync(join(bin, target))) continue; // no typescript installed (a consumer's install): nothing to fix
  if (existsSync(link) || lstatSync(link, { throwIfNoEntry: false })) {
    if (readlinkSync(link) === target) continue;
    unlinkSync(link);
  }
  symlinkSync(target, link);
}
