import type { Comparison } from '../../common/compare/comparison.js';
import type { JobFailure } from '../job-request.js';
import type { WorkerScript } from '../../io/worker-script.js';
import { startWorkerTask } from '../worker-host.js';
import type { CompareProgress } from './compare-jobs.js';
import type { CompareRequest } from './compare-request.js';

export type CompareOutcome = { readonly ok: true; readonly comparison: Comparison } | { readonly ok: false; readonly failure: JobFailure };

export interface RunningComparison {
  readonly result: Promise<CompareOutcome>;
  /** Stops the worker (and its helper) and removes whatever it was staging: nothing is left behind. */
  cancel(): Promise<void>;
}

/** Runs a comparison in the job worker, as `run` runs a job, so the host stays free to draw progress and cancel. */
export function startComparison(workerScript: WorkerScript, request: CompareRequest, onProgress?: (p: CompareProgress) => void): RunningComparison {
  const task = startWorkerTask<Comparison, 'compare'>(workerScript, request, (message, finish) => {
    if (message.type === 'compare-progress') onProgress?.(message.progress);
    else if (message.type === 'compared') finish({ ok: true, value: message.comparison });
    else if (message.type === 'failed') finish({ ok: false, failure: message.failure });
  });
  return { result: task.result.then((o): CompareOutcome => (o.ok ? { ok: true, comparison: o.value } : o)), cancel: () => task.cancel() };
}
