import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { IPC_CHANNELS, MENU_CHANNEL, type CustosApi, type MenuCommand } from './api.js';

// The renderer gets this object and nothing else: no ipcRenderer, no Node.
const api: CustosApi = {
  appInfo: () => ipcRenderer.invoke(IPC_CHANNELS.appInfo, {}),
  chooseFile: () => ipcRenderer.invoke(IPC_CHANNELS.chooseFile, {}),
  chooseFolder: () => ipcRenderer.invoke(IPC_CHANNELS.chooseFolder, {}),
  inspect: (path, options) => ipcRenderer.invoke(IPC_CHANNELS.inspect, { path, options }),
  rows: (fileId, offset, count) => ipcRenderer.invoke(IPC_CHANNELS.rows, { fileId, offset, count }),
  assess: (job) => ipcRenderer.invoke(IPC_CHANNELS.assess, { job }),
  startRun: (job, outDir) => ipcRenderer.invoke(IPC_CHANNELS.startRun, { job, outDir }),
  runStatus: (id) => ipcRenderer.invoke(IPC_CHANNELS.runStatus, { id }),
  cancelRun: (id) => ipcRenderer.invoke(IPC_CHANNELS.cancelRun, { id }),
  revealFolder: (path) => ipcRenderer.invoke(IPC_CHANNELS.revealFolder, { path }),
  fileUrl: () => null,
  // Only a File the user dropped or picked has a path; the grant is sent before the page can use it
  // (IPC from one page is delivered in order), and page code cannot forge such a File.
  pathForFile: (file) => {
    const path = webUtils.getPathForFile(file);
    if (path) void ipcRenderer.invoke(IPC_CHANNELS.grantFile, { path });
    return path;
  },
  onMenuCommand: (handler) => {
    ipcRenderer.on(MENU_CHANNEL, (_event, command: MenuCommand) => handler(command));
  },
};

contextBridge.exposeInMainWorld('custos', api);
