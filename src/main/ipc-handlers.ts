import { z } from 'zod';
import { readTable } from '../io/input/read-table.js';
import type { InspectSummary } from '../preload/api.js';

/**
 * IPC handlers are plain functions over src/io and src/jobs: the Electron main
 * process registers them on ipcMain, and a loopback dev host can serve the same
 * functions to the same renderer in a browser.
 */
export const inspectRequest = z.object({ path: z.string().min(1) }).strict();

export function handleInspect(request: unknown): InspectSummary {
  const { path } = inspectRequest.parse(request);
  const imported = readTable(path, { missing: [''], onBadRow: 'skip' });
  return {
    rows: imported.table.rowCount,
    columns: imported.table.columns.map((c) => ({ name: c.name, type: c.type, distinct: c.distinct, missing: c.missing })),
    ...(imported.encoding ? { encoding: imported.encoding } : {}),
    ...(imported.delimiter ? { delimiter: imported.delimiter } : {}),
  };
}
