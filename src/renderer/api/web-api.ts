import { IPC_CHANNELS, type Channel, type CustosApi } from '../../preload/api.js';

/**
 * The API over the loopback dev host: the same channels as the desktop IPC,
 * posted to /api/<channel> with the per-run token from the URL fragment.
 */
export function createWebApi(): CustosApi {
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
  const call = async <T>(channel: Channel, payload: object = {}): Promise<T> => {
    const response = await fetch(`/api/${encodeURIComponent(channel)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Custos-Token': token },
      body: JSON.stringify(payload),
    });
    const body = (await response.json()) as { value?: T; error?: string };
    if (!response.ok) throw new Error(body.error ?? `request failed (${response.status})`);
    return body.value as T;
  };
  return {
    appInfo: () => call(IPC_CHANNELS.appInfo),
    chooseFile: () => call(IPC_CHANNELS.chooseFile),
    chooseFolder: () => call(IPC_CHANNELS.chooseFolder),
    inspect: (path, options) => call(IPC_CHANNELS.inspect, { path, options }),
    rows: (fileId, offset, count) => call(IPC_CHANNELS.rows, { fileId, offset, count }),
    assess: (job) => call(IPC_CHANNELS.assess, { job }),
    startRun: (job, outDir) => call(IPC_CHANNELS.startRun, { job, outDir }),
    runStatus: (id) => call(IPC_CHANNELS.runStatus, { id }),
    cancelRun: (id) => call(IPC_CHANNELS.cancelRun, { id }),
    revealFolder: (path) => call(IPC_CHANNELS.revealFolder, { path }),
    pathForFile: () => '',
    onMenuCommand: () => undefined,
    fileUrl: (id, name) => `/files/${encodeURIComponent(id)}/${encodeURIComponent(name)}?token=${encodeURIComponent(token)}`,
  };
}
