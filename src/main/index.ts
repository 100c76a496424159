import { app, BrowserWindow, ipcMain, net, protocol, session } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
import { IPC_CHANNELS } from '../preload/api.js';
import { APP_ORIGIN, lockDownSession, lockDownWindow } from './hardening.js';
import { handleInspect } from './ipc-handlers.js';

// A thin shell: windows, protocol and IPC registration; all work lives in src/jobs and src/io.
protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Custos',
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  lockDownWindow(window);
  void window.loadURL(`${APP_ORIGIN}/index.html`);
}

void app.whenReady().then(() => {
  const rendererRoot = join(here, '../renderer');
  protocol.handle('app', (request) => {
    const path = new URL(request.url).pathname;
    const target = join(rendererRoot, path);
    if (!target.startsWith(rendererRoot)) return new Response('not found', { status: 404 });
    return net.fetch(pathToFileURL(target).toString());
  });
  lockDownSession(session.defaultSession);
  ipcMain.handle(IPC_CHANNELS.inspect, (event, request: unknown) => {
    if (!event.senderFrame || !event.senderFrame.url.startsWith(`${APP_ORIGIN}/`)) throw new Error('IPC from an unexpected sender');
    return handleInspect(request);
  });
  createWindow();
});

app.on('window-all-closed', () => app.quit());
