// Debian's chromium for the page tests (playwright-core drives it): where it is, and a fresh headless context.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';

export const chromiumPath = '/usr/bin/chromium';

/** Where the page tests leave pictures for a person, unless EVAP_SCREENSHOTS says: one folder per user (another user's is not writable). */
export const scratchShots = join(tmpdir(), `evap-explorer-screenshots-${process.getuid?.() ?? 'user'}`);

/** Whether chromium is absent here; when it is, says which test skips and how to run it. */
export function chromiumMissing(what: string): boolean {
  const missing = !existsSync(chromiumPath);
  if (missing) console.warn(`skipping ${what}: ${chromiumPath} is absent (apt-get install chromium to run it)`);
  return missing;
}

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

// one browser for the test files of a process (they share its modules), launched on first use: a launch and its close
// cost about 3 s of CPU and several seconds of wall; playwright ends it when the process exits
let shared: Promise<Browser> | undefined;

function sharedBrowser(): Promise<Browser> {
  if (shared) return shared;
  const launched = chromium.launch({ executablePath: chromiumPath, args });
  const forget = () => {
    if (shared === launched) shared = undefined; // crashed or failed to start: the next file launches another
  };
  launched.then((browser) => browser.once('disconnected', forget), forget);
  shared = launched;
  return launched;
}

/**
 * A fresh headless browser context (its own cookies, storage and cache, as a new profile has), nothing of the browser's
 * own on the network (no updates, no sync, no QUIC). Closing it leaves the browser to the next test file.
 */
export async function launchChromium(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return (await sharedBrowser()).newContext(options);
}
