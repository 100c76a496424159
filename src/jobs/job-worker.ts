import { parentPort, workerData } from 'node:worker_threads';
import { describeFailure, executeRequest } from './execute-request.js';
import type { JobRequest, WorkerMessage } from './job-request.js';
import { unhandledEntry, type JobWorkerData, type ServiceCallEnvelope, type ServiceReplyEnvelope } from './worker-protocol.js';
import { rememberStaging } from './staging-register.js';
import { TableService } from './service/table-service.js';
import { serveHelperEntry } from './helper-entries.js';
import { helperWorkerBeside, thisBundle } from './bundled-scripts.js';
import { executeComparison, HelperFailure, serveCompareHelper } from './compare/compare-worker.js';
import type { CompareMessage, CompareRequest } from './compare/compare-request.js';

/** Worker thread entry: runs one request, reports progress, never touches the host's state. */
const port = parentPort;
if (!port) throw new Error('job-worker must run in a worker thread');
const post = (message: WorkerMessage): void => port.postMessage(message);

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
      // The helpers' script beside this one (this very script in the single-file executable).
      helperScript: helperWorkerBeside(import.meta.url),
    });
    post({ type: 'done', report: result.report, ...(result.outDir ? { outDir: result.outDir } : {}), ...(result.internalDir ? { internalDir: result.internalDir } : {}) });
  } catch (error) {
    post({ type: 'failed', failure: describeFailure(error) });
  }
}

/** The long-lived worker of the app: holds the open tables and answers calls one after another. */
function serve(): void {
  const service = new TableService(helperWorkerBeside(import.meta.url));
  let queue = Promise.resolve();
  port!.on('message', (message: ServiceCallEnvelope) => {
    queue = queue.then(async () => port!.postMessage({ id: message.id, reply: await service.handle(message.request) } satisfies ServiceReplyEnvelope));
  });
}

/** A comparison of candidate jobs: progress and the result posted as a run's are. */
async function compare(request: CompareRequest): Promise<void> {
  const send = (message: CompareMessage): void => port!.postMessage(message);
  let lastPosted = 0;
  try {
    const comparison = await executeComparison(request, {
      onProgress: (progress) => {
        const now = Date.now();
        if (now - lastPosted < 50 && progress.fraction > 0 && progress.fraction < 1) return;
        lastPosted = now;
        send({ type: 'compare-progress', progress });
      },
      onStaging: (path) => {
        if (stagingBuffer) rememberStaging(stagingBuffer, path);
      },
      helperScript: thisBundle(import.meta.url),
    });
    send({ type: 'compared', comparison });
  } catch (error) {
    send({ type: 'failed', failure: error instanceof HelperFailure ? error.failure : describeFailure(error) });
  }
}

type StartData = JobWorkerData & { stagingBuffer?: SharedArrayBuffer };
/** Where a run or comparison notes its staging folders, for the host to remove should this thread die. */
let stagingBuffer: SharedArrayBuffer | undefined;

/** Runs one entry of the protocol. */
function begin(data: StartData): void {
  const { stagingBuffer: notes, ...request } = data;
  stagingBuffer = notes;
  // Not awaited at the top level: the standalone build is CommonJS, which has no top-level await.
  switch (request.command) {
    case 'serve':
      serve();
      break;
    case 'compare':
      void compare(request);
      break;
    case 'compare-helper':
      serveCompareHelper(request);
      break;
    case 'utility-helper':
    case 'csv-chunk':
    case 'risk-profile-helper':
    case 'workbook-sheets-helper':
      // A thread kept after its work (a file's part, read) waits for its next start data.
      if (serveHelperEntry(request)) port!.once('message', (data: StartData) => begin(data));
      break;
    case 'assess':
    case 'run':
      void execute(request);
      break;
    case 'warm':
      // Started ahead of its work (prestartWorker): the first message is the data it would have been started with.
      port!.once('message', (data: StartData) => begin(data));
      break;
    default:
      unhandledEntry(request);
  }
}

begin(workerData as StartData);
