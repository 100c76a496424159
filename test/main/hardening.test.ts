import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appAssetPath, isAppUrl, lockDownContents, lockDownSession, type LockableContents, type LockableSession } from '../../src/main/hardening.js';

type Listener = (event: { preventDefault(): void; url?: string }, url?: string) => void;

/** A fake WebContents that records its listeners, so each guard can be fired as Electron would. */
function fakeContents(): LockableContents & { fire(name: string, url: string, onEvent?: boolean): boolean; openHandler?: () => { action: string } } {
  const listeners = new Map<string, Listener[]>();
  const fake = {
    openHandler: undefined as (() => { action: string }) | undefined,
    on(name: string, listener: Listener) {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
      return fake;
    },
    setWindowOpenHandler(handler: () => { action: 'deny' }) {
      fake.openHandler = handler;
    },
    fire(name: string, url: string, onEvent = false): boolean {
      let prevented = false;
      const event = { preventDefault: () => (prevented = true), ...(onEvent ? { url } : {}) };
      for (const l of listeners.get(name) ?? []) l(event, onEvent ? undefined : url);
      if (!listeners.has(name)) throw new Error(`no guard for ${name}`);
      return prevented;
    },
  };
  return fake;
}

describe('Electron hardening', () => {
  it('app URLs are recognised with the separator, not as a bare prefix', () => {
    expect(isAppUrl('app://custos/index.html')).toBe(true);
    expect(isAppUrl('app://custos.evil/index.html')).toBe(false);
    expect(isAppUrl('app://custosx/index.html')).toBe(false);
    expect(isAppUrl('https://example.org/')).toBe(false);
  });

  it('serves only files inside the renderer folder, not a sibling sharing its prefix or a path climbing out', () => {
    const root = join('/opt', 'custos', 'renderer');
    expect(appAssetPath(root, 'app://custos/index.html')).toBe(join(root, 'index.html'));
    // The URL parser resolves dot segments inside the origin: this stays in the root.
    expect(appAssetPath(root, 'app://custos/../renderer-evil/x.js')).toBe(join(root, 'renderer-evil', 'x.js'));
    // Encoded separators decode to a climb out of the root, into a sibling that shares its prefix.
    expect(appAssetPath(root, 'app://custos/..%2f..%2frenderer-evil%2fx.js')).toBeNull();
    expect(appAssetPath(root, 'app://custos/%2e%2e/renderer-evil/x.js')).toBe(join(root, 'renderer-evil', 'x.js'));
    expect(appAssetPath(root, 'app://custos/..%2f..%2fetc/passwd')).toBeNull();
    expect(appAssetPath(root, 'app://other/index.html')).toBeNull();
  });

  it('blocks navigation, redirects and subframe navigation away from the app, and new windows', () => {
    const contents = fakeContents();
    lockDownContents(contents);
    expect(contents.fire('will-navigate', 'https://example.org/')).toBe(true);
    expect(contents.fire('will-redirect', 'https://example.org/')).toBe(true);
    expect(contents.fire('will-frame-navigate', 'file:///etc/passwd', true)).toBe(true);
    expect(contents.fire('will-navigate', 'app://custos/index.html')).toBe(false);
    expect(contents.fire('will-frame-navigate', 'app://custos/index.html', true)).toBe(false);
    expect(contents.openHandler?.()).toEqual({ action: 'deny' });
  });

  it('cancels every request that is not app content, denies permission requests and checks, devtools only in development', () => {
    const recorded: { before?: (d: { url: string }, cb: (r: { cancel: boolean }) => void) => void; request?: unknown; check?: () => boolean } = {};
    const session = {
      webRequest: {
        onBeforeRequest: (listener: typeof recorded.before) => (recorded.before = listener),
        onHeadersReceived: () => undefined,
      },
      setPermissionRequestHandler: (handler: unknown) => (recorded.request = handler),
      setPermissionCheckHandler: (handler: () => boolean) => (recorded.check = handler),
      setSpellCheckerEnabled: () => undefined,
    } as unknown as LockableSession;
    const cancelled = (url: string): boolean => {
      let cancel = false;
      recorded.before!({ url }, (r) => (cancel = r.cancel));
      return cancel;
    };
    lockDownSession(session, { devtools: false });
    expect(cancelled('https://example.org/')).toBe(true);
    expect(cancelled('devtools://devtools/bundled/inspector.html')).toBe(true);
    expect(cancelled('app://custos/app.js')).toBe(false);
    expect(recorded.check?.()).toBe(false);
    expect(recorded.request).toBeTypeOf('function');
    lockDownSession(session, { devtools: true });
    expect(cancelled('devtools://devtools/bundled/inspector.html')).toBe(false);
  });
});
