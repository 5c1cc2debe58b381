// globalSetup: one temporary folder for the run, where fixtures too costly to make for each test file are made once
// (on first use, by whichever test file needs them) and copied from; removed when the run ends.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    cacheFolder: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(join(tmpdir(), 'evap-test-cache-'));
  project.provide('cacheFolder', folder);
  return () => rm(folder, { recursive: true, force: true });
}
