import { parentPort, workerData } from 'node:worker_threads';
import { describeFailure, executeRequest } from './execute-request.js';
import type { InspectRequest, JobRequest, WorkerMessage } from './job-request.js';
import { readTable } from '../io/input/read-table.js';
import { rememberStaging } from './staging-register.js';

/** Worker thread entry: runs one request, reports progress, never touches the host's state. */
const port = parentPort;
if (!port) throw new Error('job-worker must run in a worker thread');
const post = (message: WorkerMessage): void => port.postMessage(message);

function inspect(request: InspectRequest): void {
  try {
    const imported = readTable(request.path, request.options);
    // The code arrays move to the host without a copy.
    port!.postMessage({ type: 'inspected', imported } satisfies WorkerMessage, imported.table.columns.map((c) => c.codes.buffer as ArrayBuffer));
  } catch (error) {
    post({ type: 'failed', failure: describeFailure(error) });
  }
}

async function execute(request: JobRequest): Promise<void> {
  let lastPosted = 0;
  try {
    const result = await executeRequest(request, {
      onProgress: (event) => {
        const now = Date.now();
        if (now - lastPosted < 50 && event.fraction > 0 && event.fraction < 1) return;
        lastPosted = now;
        post({ type: 'progress', event });
      },
      onStaging: (path) => {
        if (stagingBuffer) rememberStaging(stagingBuffer, path);
      },
    });
    post({ type: 'done', report: result.report, ...(result.outDir ? { outDir: result.outDir } : {}), ...(result.internalDir ? { internalDir: result.internalDir } : {}) });
  } catch (error) {
    post({ type: 'failed', failure: describeFailure(error) });
  }
}

const { stagingBuffer, ...request } = workerData as (JobRequest | InspectRequest) & { stagingBuffer?: SharedArrayBuffer };
if (request.command === 'inspect') inspect(request);
else await execute(request);
