import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CUSTOS_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
// On a developer's machine without Chromium the browser tests are skipped; in CI that would hide them.
if (process.env.CI && !hasChromium) throw new Error(`CI: no Chromium at ${CHROMIUM}; the browser tests must run, not be skipped (apt-get install chromium)`);

/** Debian's Chromium, headless, with every background network feature off (the machines are offline). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}
