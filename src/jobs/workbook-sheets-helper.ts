import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { gatheredTable, receivedCompactTable, type ReleaseTable } from '../io/output/release-table.js';
import { startHelperThread, type WorkerScript } from '../io/worker-script.js';
import { deflateTableSheets } from '../io/output/xlsx-writer.js';
import type { DeflatedPart } from '../io/output/zip-writer.js';
import type { CompactRelease } from './release-writers.js';

/**
 * The workbook's table sheets made and deflated on a helper thread while the job's thread writes the
 * other files: at 1M rows a sheet is about 240 MB of XML, a second and more of a core, and nothing in
 * it depends on what the job's thread writes meanwhile (the descriptive sheets, which list the files
 * written before the workbook, come after it and are made on the job's thread). The helper is handed
 * the released tables with their codes gathered (gatheredTable: the run's gathering, in shared
 * memory, so not copied) and makes the same bytes writeXlsx would (deflateTableSheets); the job's
 * thread puts the parts in their place in the workbook.
 */

/** What the helper is started with (the job worker's `workbook-sheets-helper` entry). */
export interface WorkbookSheetsData {
  readonly command: 'workbook-sheets-helper';
  readonly tables: readonly { readonly name: string; readonly table: ReleaseTable }[];
  readonly maxRowsPerSheet: number;
  readonly port: MessagePort;
}

type HelperReply = { readonly ok: true; readonly parts: readonly DeflatedPart[] } | { readonly ok: false; readonly message: string };

/** What a thread started ahead for the workbook's sheets is named by (prestartWorker). */
export const WORKBOOK_SHEETS_HELPER = 'workbook-sheets-helper';

/** The helper's side: make and deflate the sheets, post them. */
export function serveWorkbookSheets(data: WorkbookSheetsData): void {
  const tables = data.tables.map((t) => ({ name: t.name, table: receivedCompactTable(t.table) }));
  deflateTableSheets(tables, data.maxRowsPerSheet).then(
    (parts) => postParts(data.port, parts),
    (error: unknown) => data.port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) } satisfies HelperReply),
  );
}

/**
 * The deflated parts moved, not copied (a 10M-row workbook is 200 MB of them): each buffer once in
 * the list; where one cannot be moved (a buffer of Node's small-buffer pool), they are copied.
 */
function postParts(port: MessagePort, parts: readonly DeflatedPart[]): void {
  const reply: HelperReply = { ok: true, parts };
  const buffers = new Set<ArrayBuffer>();
  for (const part of parts) for (const chunk of part.deflated) if (chunk.buffer instanceof ArrayBuffer) buffers.add(chunk.buffer);
  try {
    port.postMessage(reply, [...buffers]);
  } catch {
    port.postMessage(reply);
  }
}

export interface PendingSheets {
  /** The deflated table sheets, in writeXlsx's order. */
  readonly parts: Promise<readonly DeflatedPart[]>;
  /** Stops the helper (a run that failed no longer needs it, or the workbook is written). */
  close(): void;
}

/**
 * Starts the sheets of `releases` (one sheet each, split at `maxRowsPerSheet` rows) on a helper
 * thread running `helperScript`; undefined without one or when none can start (writeXlsx then makes
 * them itself, as before).
 */
export function startWorkbookSheets(helperScript: WorkerScript | undefined, releases: readonly CompactRelease[], maxRowsPerSheet: number): PendingSheets | undefined {
  if (!helperScript) return undefined;
  const tables = releases.map((r) => ({ name: r.sheetName, table: gatheredTable(r.table) }));
  const helper = startHelperThread(helperScript, (port) => ({ command: 'workbook-sheets-helper', tables, maxRowsPerSheet, port }) satisfies WorkbookSheetsData, [], WORKBOOK_SHEETS_HELPER);
  if (!helper) return undefined;
  const { worker, port: port1, close } = helper;
  const parts = new Promise<readonly DeflatedPart[]>((resolve, reject) => {
    const answer = (reply: HelperReply): void => (reply.ok ? resolve(reply.parts) : reject(new Error(`the workbook's sheets failed: ${reply.message}`)));
    port1.once('message', answer);
    worker.once('error', (error) => reject(new Error(`the workbook's sheets failed: ${error instanceof Error ? error.message : String(error)}`)));
    // The helper ends once it has posted: its exit can be seen here before its message is, so a
    // message already on the port is its answer, not a helper that stopped.
    worker.once('exit', (code) => {
      const posted = helper.closed ? undefined : receiveMessageOnPort(port1);
      if (posted) answer(posted.message as HelperReply);
      else reject(new Error(`the workbook's sheets helper stopped (exit code ${code})`));
    });
  });
  // A run that fails before it writes the workbook never awaits the parts: their failure is not its error.
  parts.catch(() => undefined);
  return { parts, close };
}
