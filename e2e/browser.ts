import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CUSTOS_CHROMIUM ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with every background network feature off (the machines are offline). */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

/** A missing browser fails the run with what to install; the journeys are never silently skipped. */
export function requireChromium(): string {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: the browser tests must run, not be skipped (apt-get install chromium, or set CUSTOS_CHROMIUM)`);
  return CHROMIUM;
}
