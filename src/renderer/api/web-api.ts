import type { CustosApi } from '../../common/ipc/api.js';
import { hostCalls } from '../../common/ipc/ipc-contract.js';

/**
 * The API over the loopback dev host: the same channels as the desktop IPC,
 * posted to /api/<channel> with the per-run token from the URL fragment.
 */
export function createWebApi(): CustosApi {
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
  const post = async (channel: string, payload: unknown): Promise<unknown> => {
    const response = await fetch(`/api/${encodeURIComponent(channel)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Custos-Token': token },
      body: JSON.stringify(payload),
    });
    const body = (await response.json()) as { value?: unknown; error?: string };
    if (!response.ok) throw new Error(body.error ?? `request failed (${response.status})`);
    return body.value;
  };
  // The dev host has no dialogs and grants nothing: it is a local tool that accepts typed paths.
  const { grantFile: _grantFile, ...calls } = hostCalls(post);
  return {
    ...calls,
    pathForFile: () => '',
    onMenuCommand: () => undefined,
    fileUrl: (id, name) => `/files/${encodeURIComponent(id)}/${encodeURIComponent(name)}?token=${encodeURIComponent(token)}`,
  };
}
