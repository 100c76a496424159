import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { MENU_CHANNEL, type CustosApi, type MenuCommand } from '../common/ipc/api.js';
import { hostCalls } from '../common/ipc/ipc-contract.js';

// The renderer gets this object and nothing else: no ipcRenderer, no Node, and no grantFile.
const { grantFile, ...calls } = hostCalls((channel, request) => ipcRenderer.invoke(channel, request));
const api: CustosApi = {
  ...calls,
  fileUrl: () => null,
  // Only a File the user dropped or picked has a path; the grant is sent before the page can use it
  // (IPC from one page is delivered in order), and page code cannot forge such a File.
  pathForFile: (file) => {
    const path = webUtils.getPathForFile(file);
    if (path) void grantFile({ path });
    return path;
  },
  onMenuCommand: (handler) => {
    ipcRenderer.on(MENU_CHANNEL, (_event, command: MenuCommand) => handler(command));
  },
};

contextBridge.exposeInMainWorld('custos', api);
