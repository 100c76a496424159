import { parentPort, workerData } from 'node:worker_threads';
import { serveHelperEntry } from './helper-entries.js';
import type { HelperWorkerData } from './worker-protocol.js';

/**
 * The helper threads' script: a run's helpers (reading a file's second part, the utility figure's
 * pool, the release's risk profile, the workbook's sheets) and nothing else. It loads a fraction of
 * the job worker's code (the shared chunks only), so a helper starts in about two thirds of a job
 * worker's time: three of them start in a run of a million records, while both cores are busy.
 */
const port = parentPort;
if (!port) throw new Error('helper-worker must run in a worker thread');

function begin(data: HelperWorkerData): void {
  // Started ahead of its work (prestartWorker), or kept after it (serveHelperEntry says): the next message is its start data.
  if (data.command === 'warm' || serveHelperEntry(data)) port!.once('message', (next: HelperWorkerData) => begin(next));
}

begin(workerData as HelperWorkerData);
