import type { BrowserWindow, Session } from 'electron';

export const APP_ORIGIN = 'app://custos';

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'none'; " +
  "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Air-gapped by construction: every request that is not app content is cancelled. */
export function lockDownSession(session: Session): void {
  session.webRequest.onBeforeRequest((details, callback) => {
    callback({ cancel: !details.url.startsWith(`${APP_ORIGIN}/`) && !details.url.startsWith('devtools://') });
  });
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setSpellCheckerEnabled(false);
}

/** No navigation away from the app and no new windows. */
export function lockDownWindow(window: BrowserWindow): void {
  window.webContents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
}
