import { join, normalize, sep } from 'node:path';
import type { BrowserWindow, Session } from 'electron';

export const APP_ORIGIN = 'app://custos';

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'none'; " +
  "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** App content only: the origin followed by its path separator, so `app://custos.evil/` or `app://custosx` never pass. */
export function isAppUrl(url: string): boolean {
  return url.startsWith(`${APP_ORIGIN}/`);
}

/**
 * The file an app:// URL names inside the renderer folder, or null. The root is
 * compared with a trailing separator: a sibling folder such as `renderer-evil`
 * shares the prefix `renderer`.
 */
export function appAssetPath(rendererRoot: string, url: string): string | null {
  if (!isAppUrl(url)) return null;
  const root = normalize(rendererRoot);
  const target = normalize(join(root, decodeURIComponent(new URL(url).pathname)));
  return target.startsWith(root.endsWith(sep) ? root : `${root}${sep}`) ? target : null;
}

/** The session surface the lock-down uses (Electron's Session; a fake in tests). */
export type LockableSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setSpellCheckerEnabled'> & {
  readonly webRequest: Pick<Session['webRequest'], 'onBeforeRequest' | 'onHeadersReceived'>;
};

/** Air-gapped by construction: every request that is not app content is cancelled. */
export function lockDownSession(session: LockableSession, options: { devtools: boolean }): void {
  session.webRequest.onBeforeRequest((details, callback) => {
    callback({ cancel: !isAppUrl(details.url) && !(options.devtools && details.url.startsWith('devtools://')) });
  });
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  // Requests (a prompt) and checks (a silent query, e.g. for clipboard or media) are both denied.
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setSpellCheckerEnabled(false);
}

/** The window surface the lock-down uses (Electron's WebContents; a fake in tests). */
export interface LockableContents {
  on(event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate', listener: (event: { preventDefault(): void; url?: string }, url?: string) => void): unknown;
  setWindowOpenHandler(handler: () => { action: 'deny' }): void;
}

/** No navigation away from the app — by link, redirect or subframe — and no new windows. */
export function lockDownContents(contents: LockableContents): void {
  const guard = (event: { preventDefault(): void; url?: string }, url?: string): void => {
    // will-frame-navigate passes the URL on the event; the others as an argument.
    if (!isAppUrl(url ?? event.url ?? '')) event.preventDefault();
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-frame-navigate', guard);
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

export function lockDownWindow(window: BrowserWindow): void {
  lockDownContents(window.webContents as unknown as LockableContents);
}
