// Debian's chromium for the page tests (playwright-core drives it): where it is, and a fresh headless context.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { tempDir } from '../helpers.js';

export const chromiumPath = '/usr/bin/chromium';

/** Where the page tests leave pictures for a person, unless EVAP_SCREENSHOTS says: one folder per user (another user's is not writable). */
export const scratchShots = join(tmpdir(), `evap-explorer-screenshots-${process.getuid?.() ?? 'user'}`);

/** Whether chromium is absent here; when it is, says which test skips and how to run it. */
export function chromiumMissing(what: string): boolean {
  const missing = !existsSync(chromiumPath);
  if (missing) console.warn(`skipping ${what}: ${chromiumPath} is absent (apt-get install chromium to run it)`);
  return missing;
}

/** A headless browser with a fresh user-data-dir, nothing of its own on the network (no updates, no sync, no QUIC). */
export async function launchChromium(options: Parameters<typeof chromium.launchPersistentContext>[1] = {}): Promise<BrowserContext> {
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ];
  return chromium.launchPersistentContext(await tempDir('evap-chromium-'), { executablePath: chromiumPath, args, ...options });
}
