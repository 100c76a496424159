import { app, BrowserWindow, dialog, ipcMain, Menu, net, protocol, session, shell } from 'electron';
import Store from 'electron-store';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MENU_CHANNEL, type MenuCommand } from '../common/ipc/api.js';
import { IPC_CHANNELS } from '../common/ipc/ipc-contract.js';
import { APP_ORIGIN, appAssetPath, isAppUrl, lockDownSession, lockDownWindow } from './hardening.js';
import { AppSession } from './session.js';
import type { RecentJob } from '../common/ipc/api.js';
import { folderWrittenBy, GrantedAccess, pathsReadBy } from './path-access.js';
import { INPUT_EXTENSIONS } from '../common/input-formats.js';

const here = dirname(fileURLToPath(import.meta.url));

// Preferences, recent files and the jobs that ran (settings and paths): never microdata, never results.
const store = new Store<{ recentFiles: string[]; recentJobs: RecentJob[] }>({ defaults: { recentFiles: [], recentJobs: [] } });

// A thin shell: window, menu, protocol and IPC registration; all work lives in src/jobs and src/io.
protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 1024,
    minHeight: 700,
    title: 'Custos',
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      // A packaged build has no developer tools: they would reach every byte the page holds.
      devTools: !app.isPackaged,
    },
  });
  lockDownWindow(window);
  void window.loadURL(`${APP_ORIGIN}/index.html`);
  return window;
}

function menu(window: BrowserWindow): Menu {
  const send = (command: MenuCommand) => () => window.webContents.send(MENU_CHANNEL, command);
  return Menu.buildFromTemplate([
    {
      label: 'File',
      submenu: [
        { label: 'Open…', accelerator: 'CmdOrCtrl+O', click: send('open') },
        { label: 'Save job…', accelerator: 'CmdOrCtrl+S', click: send('save-job') },
        { label: 'Export…', accelerator: 'CmdOrCtrl+E', click: send('export') },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { label: 'Help', submenu: [{ label: 'About Custos', click: () => void dialog.showMessageBox(window, { message: `Custos ${app.getVersion()}`, detail: 'Offline workbench for protected releases. No network request is ever made.' }) }] },
  ]);
}

void app.whenReady().then(() => {
  // Packaged: beside main; from a checkout: the bundle scripts/build-cli.mjs wrote.
  const rendererRoot = app.isPackaged ? join(here, '../renderer') : join(here, '../../dist/renderer');
  protocol.handle('app', (request) => {
    const target = appAssetPath(rendererRoot, request.url);
    if (!target) return new Response('not found', { status: 404 });
    return net.fetch(pathToFileURL(target).toString());
  });
  lockDownSession(session.defaultSession, { devtools: !app.isPackaged });
  const window = createWindow();
  Menu.setApplicationMenu(menu(window));
  const samplePath = app.isPackaged ? join(process.resourcesPath, 'adult', 'adult.csv') : join(here, '../../resources/adult/adult.csv');
  // The user's own grants: the sample, and files they opened before (the recent list).
  const baseDir = app.getPath('documents');
  const access = new GrantedAccess([samplePath, ...store.get('recentFiles'), ...store.get('recentJobs').flatMap((r) => pathsReadBy(r.job, baseDir))]);
  for (const r of store.get('recentJobs')) {
    const folder = folderWrittenBy(r.job);
    if (folder) access.grantFolder(folder);
  }
  const appSession = new AppSession({
    info: { version: app.getVersion(), host: 'electron', samplePath, sampleName: 'Adult (UCI, 30,162 records)' },
    access,
    workerUrl: pathToFileURL(join(here, 'job-worker.js')),
    baseDir,
    chooseFile: async () => {
      const result = await dialog.showOpenDialog(window, {
        properties: ['openFile'],
        filters: [{ name: 'Tables', extensions: [...INPUT_EXTENSIONS] }],
      });
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    recent: {
      list: () => store.get('recentFiles'),
      add: (path) => store.set('recentFiles', [path, ...store.get('recentFiles').filter((p) => p !== path)].slice(0, 10)),
    },
    recentJobs: {
      list: () => store.get('recentJobs'),
      add: (entry) => store.set('recentJobs', [entry, ...store.get('recentJobs').filter((r) => JSON.stringify(r.job) !== JSON.stringify(entry.job))].slice(0, 10)),
    },
    chooseFolder: async () => {
      const result = await dialog.showOpenDialog(window, { properties: ['openDirectory', 'createDirectory'], title: 'Folder for the release' });
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    revealFolder: async (path) => shell.showItemInFolder(path),
  });
  appSession.warmUp();
  for (const channel of Object.values(IPC_CHANNELS)) {
    ipcMain.handle(channel, (event, payload: unknown) => {
      // Only our own page may call: the sender frame must be app content.
      if (!event.senderFrame || !isAppUrl(event.senderFrame.url)) throw new Error('IPC from an unexpected sender');
      return appSession.dispatch(channel, payload);
    });
  }
});

app.on('window-all-closed', () => app.quit());
