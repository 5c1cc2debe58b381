// Relocated metadata files: every location under the old root moved, nothing else changed (the same records, schema
// and header metadata), and a manifest list's lengths those of the moved manifests.
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { decodeAvroFile } from '../../../lib/tables/avro.js';
import { relocateManifest, relocateManifestList, relocateMetadata, relocatePath } from '../../../lib/tables/relocate.js';
import { tempDir, writeTinyStore } from '../../helpers.js';

async function tinyTable(): Promise<{ folder: string; root: string; files: string[] }> {
  const dir = await tempDir();
  await writeTinyStore(dir);
  const folder = `${dir}/tables/reservoir_nete_volume_calcs/metadata`;
  return { folder, root: `file://${dir}`, files: await readdir(folder) };
}

describe('relocatePath', () => {
  it('moves a location under the root and leaves any other', () => {
    expect(relocatePath('file:///a/b/tables/t', 'file:///a/b', 's3://x')).toBe('s3://x/tables/t');
    expect(relocatePath('file:///a/bc/tables/t', 'file:///a/b', 's3://x')).toBe('file:///a/bc/tables/t');
  });
});

describe('relocateManifest and relocateManifestList', () => {
  it('write the same bytes when nothing moves', async () => {
    const { folder, root, files } = await tinyTable();
    for (const name of files.filter((f) => f.endsWith('.avro'))) {
      const bytes = new Uint8Array(await readFile(`${folder}/${name}`));
      const lengths = new Map(
        (decodeAvroFile(bytes).records as { manifest_path: string; manifest_length: number }[]).map((r) => [r.manifest_path, r.manifest_length]),
      );
      const again = name.startsWith('snap-') ? relocateManifestList(bytes, root, root, (p) => lengths.get(p)!) : relocateManifest(bytes, root, root);
      expect(Buffer.from(again).equals(Buffer.from(bytes)), name).toBe(true);
    }
  });

  it('move every path, keep every other field, and record the moved lengths', async () => {
    const { folder, root, files } = await tinyTable();
    for (const name of files.filter((f) => f.endsWith('.avro'))) {
      const bytes = new Uint8Array(await readFile(`${folder}/${name}`));
      const before = decodeAvroFile(bytes);
      const moved = decodeAvroFile(
        name.startsWith('snap-') ? relocateManifestList(bytes, root, 's3://evap.x', (p) => p.length) : relocateManifest(bytes, root, 's3://evap.x'),
      );
      expect(moved.meta).toEqual(before.meta);
      const text = JSON.stringify(moved.records, (_, v) => (typeof v === 'bigint' ? String(v) : v));
      expect(text).not.toContain('file://');
      // the records differ only where a path was, and the lengths are those given
      const expected = JSON.parse(JSON.stringify(before.records).replaceAll(root, 's3://evap.x')) as { manifest_path?: string; manifest_length?: number }[];
      if (name.startsWith('snap-'))
        for (const [i, r] of (before.records as { manifest_path: string }[]).entries()) expected[i]!.manifest_length = r.manifest_path.length;
      expect(JSON.parse(JSON.stringify(moved.records))).toEqual(expected);
    }
  });
});

describe('relocateMetadata', () => {
  it('moves the location, the manifest lists and the logged files, and nothing else', async () => {
    const { folder, root } = await tinyTable();
    const text = await readFile(`${folder}/v1.metadata.json`, 'utf8');
    const moved = relocateMetadata(JSON.parse(text), root, 's3://evap.x');
    expect(moved).toEqual(JSON.parse(text.replaceAll(root, 's3://evap.x')));
  });
});
