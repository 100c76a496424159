import { rmSync } from 'node:fs';
import type { Report } from '../common/report/report-model.js';
import type { JobFailure, JobRequest, WorkerMessage } from './job-request.js';
import type { ProgressListener } from './progress.js';
import { newStagingBuffer, stagingPaths } from './staging-register.js';
import { spawnWorker, type WorkerScript } from './method-kit/worker-script.js';

export type JobOutcome = { readonly ok: true; readonly report: Report; readonly outDir?: string; readonly internalDir?: string } | { readonly ok: false; readonly failure: JobFailure };

export interface RunningJob {
  readonly result: Promise<JobOutcome>;
  /** Stops the worker and removes its staging folder: nothing is left behind. */
  cancel(): Promise<void>;
}

/** Runs a job request in a worker thread so hosts (CLI, app) stay responsive and can cancel. */
export function startJob(workerScript: WorkerScript, request: JobRequest, onProgress?: ProgressListener): RunningJob {
  const stagingBuffer = newStagingBuffer();
  const worker = spawnWorker(workerScript, { workerData: { ...request, stagingBuffer } });
  let settle: (outcome: JobOutcome) => void = () => undefined;
  const result = new Promise<JobOutcome>((resolve) => (settle = resolve));
  let finished = false;
  let cancelling = false;
  const cancelled: JobOutcome = { ok: false, failure: { kind: 'cancelled', message: 'cancelled; nothing was written' } };
  const finish = (outcome: JobOutcome): void => {
    if (finished) return;
    finished = true;
    // Whatever the worker reports while being stopped, the outcome is a cancel.
    settle(cancelling && !outcome.ok ? cancelled : outcome);
  };
  worker.on('message', (message: WorkerMessage) => {
    if (message.type === 'progress') onProgress?.(message.event);
    else if (message.type === 'done') finish({ ok: true, report: message.report, ...(message.outDir ? { outDir: message.outDir } : {}), ...(message.internalDir ? { internalDir: message.internalDir } : {}) });
    else if (message.type === 'failed') finish({ ok: false, failure: message.failure });
  });
  worker.on('error', (error) => finish({ ok: false, failure: { kind: 'internal', message: error.stack ?? error.message } }));
  worker.on('exit', (code) => finish({ ok: false, failure: { kind: 'internal', message: `the job worker stopped unexpectedly (exit ${code})` } }));
  return {
    result,
    async cancel() {
      if (finished) return;
      cancelling = true;
      await worker.terminate();
      // A run stages two folders (internal report, release); every one it may have made is removed.
      for (const staging of stagingPaths(stagingBuffer)) rmSync(staging, { recursive: true, force: true });
      finish(cancelled);
    },
  };
}
