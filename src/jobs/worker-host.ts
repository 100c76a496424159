import { rmSync } from 'node:fs';
import type { ResourceLimits } from 'node:worker_threads';
import type { Report } from '../common/report/report-model.js';
import type { JobFailure, JobRequest } from './job-request.js';
import type { ProgressListener } from './progress.js';
import { newStagingBuffer, stagingPaths } from './staging-register.js';
import { spawnWorker, type WorkerScript } from '../io/worker-script.js';
import { JOB_TASK, type JobWorkerEntries, type TaskCommand } from './worker-protocol.js';

export type JobOutcome = { readonly ok: true; readonly report: Report; readonly outDir?: string; readonly internalDir?: string } | { readonly ok: false; readonly failure: JobFailure };

export interface RunningJob {
  readonly result: Promise<JobOutcome>;
  /** Stops the worker and removes its staging folder: nothing is left behind. */
  cancel(): Promise<void>;
}

/** A task's end as its host sees it: its value, or a failure (a cancel included). */
export type TaskOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: JobFailure };

export interface RunningTask<T> {
  readonly result: Promise<TaskOutcome<T>>;
  /** Stops the worker (and any helper it started) and removes its staging folders: nothing is left behind. */
  cancel(): Promise<void>;
}

const OUT_OF_MEMORY = 'Custos ran out of memory reading or protecting this table (the job thread reached its memory limit); nothing was written. Leave out columns or rows, or use a computer with more memory.';

/**
 * Runs one request in a worker thread so hosts (CLI, app) stay responsive and can cancel. The
 * worker's messages go to `onMessage`, which ends the task with `finish`; a worker that errs or
 * stops without finishing ends it as an internal failure, and a cancel wins over what it reports.
 */
export function startWorkerTask<T, C extends TaskCommand>(
  workerScript: WorkerScript,
  request: JobWorkerEntries[C]['data'],
  onMessage: (message: JobWorkerEntries[C]['posts'], finish: (outcome: TaskOutcome<T>) => void) => void,
  resourceLimits?: ResourceLimits,
): RunningTask<T> {
  const stagingBuffer = newStagingBuffer();
  const worker = spawnWorker(workerScript, { workerData: { ...request, stagingBuffer }, ...(resourceLimits ? { resourceLimits } : {}) }, JOB_TASK);
  let settle: (outcome: TaskOutcome<T>) => void = () => undefined;
  const result = new Promise<TaskOutcome<T>>((resolve) => (settle = resolve));
  let finished = false;
  let cancelling = false;
  const cancelled: TaskOutcome<T> = { ok: false, failure: { kind: 'cancelled', message: 'cancelled; nothing was written' } };
  const finish = (outcome: TaskOutcome<T>): void => {
    if (finished) return;
    finished = true;
    // Whatever the worker reports while being stopped, the outcome is a cancel.
    settle(cancelling && !outcome.ok ? cancelled : outcome);
  };
  // A run stages two folders (internal report, release); every one it may have made is removed when it ends without finishing.
  const removeStaging = (): void => {
    for (const staging of stagingPaths(stagingBuffer)) rmSync(staging, { recursive: true, force: true });
  };
  // A worker that dies (out of memory, a crash) never reaches its own clean-up: the host does it.
  const died = (failure: TaskOutcome<T> & { ok: false }): void => {
    if (finished) return;
    removeStaging();
    finish(failure);
  };
  worker.on('message', (message: JobWorkerEntries[C]['posts']) => onMessage(message, finish));
  worker.on('error', (error: Error & { code?: string }) =>
    died({ ok: false, failure: { kind: 'internal', message: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? OUT_OF_MEMORY : (error.stack ?? error.message) } }),
  );
  worker.on('exit', (code) => died({ ok: false, failure: { kind: 'internal', message: `the job worker stopped unexpectedly (exit ${code}); nothing was written` } }));
  return {
    result,
    async cancel() {
      if (finished) return;
      cancelling = true;
      await worker.terminate();
      removeStaging();
      finish(cancelled);
    },
  };
}

type JobDone = { readonly report: Report; readonly outDir?: string; readonly internalDir?: string };

/** Runs a job request in the job worker. */
export function startJob(workerScript: WorkerScript, request: JobRequest, onProgress?: ProgressListener): RunningJob {
  const task = startWorkerTask<JobDone, JobRequest['command']>(workerScript, request, (message, finish) => {
    if (message.type === 'progress') onProgress?.(message.event);
    else if (message.type === 'done') finish({ ok: true, value: { report: message.report, ...(message.outDir ? { outDir: message.outDir } : {}), ...(message.internalDir ? { internalDir: message.internalDir } : {}) } });
    else if (message.type === 'failed') finish({ ok: false, failure: message.failure });
  });
  return { result: task.result.then((o): JobOutcome => (o.ok ? { ok: true, ...o.value } : o)), cancel: () => task.cancel() };
}
