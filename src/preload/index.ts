import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNELS, type CustosApi, type InspectSummary } from './api.js';

// The renderer gets this object and nothing else: no ipcRenderer, no Node.
const api: CustosApi = {
  version: '0.1.0',
  inspect: (path) => ipcRenderer.invoke(IPC_CHANNELS.inspect, { path }) as Promise<InspectSummary>,
};

contextBridge.exposeInMainWorld('custos', api);
