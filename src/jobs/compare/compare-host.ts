import { rmSync } from 'node:fs';
import type { Comparison } from '../../common/compare/comparison.js';
import type { JobFailure } from '../job-request.js';
import { spawnWorker, type WorkerScript } from '../method-kit/worker-script.js';
import { newStagingBuffer, stagingPaths } from '../staging-register.js';
import type { CompareProgress } from './compare-jobs.js';
import type { CompareMessage, CompareRequest } from './compare-request.js';

export type CompareOutcome = { readonly ok: true; readonly comparison: Comparison } | { readonly ok: false; readonly failure: JobFailure };

export interface RunningComparison {
  readonly result: Promise<CompareOutcome>;
  /** Stops the worker (and its helper) and removes whatever it was staging: nothing is left behind. */
  cancel(): Promise<void>;
}

/** Runs a comparison in the job worker, as `run` runs a job, so the host stays free to draw progress and cancel. */
export function startComparison(workerScript: WorkerScript, request: CompareRequest, onProgress?: (p: CompareProgress) => void): RunningComparison {
  const stagingBuffer = newStagingBuffer();
  const worker = spawnWorker(workerScript, { workerData: { ...request, stagingBuffer } });
  let settle: (outcome: CompareOutcome) => void = () => undefined;
  const result = new Promise<CompareOutcome>((resolve) => (settle = resolve));
  let finished = false;
  let cancelling = false;
  const cancelled: CompareOutcome = { ok: false, failure: { kind: 'cancelled', message: 'cancelled; nothing was written' } };
  const finish = (outcome: CompareOutcome): void => {
    if (finished) return;
    finished = true;
    settle(cancelling && !outcome.ok ? cancelled : outcome);
  };
  worker.on('message', (message: CompareMessage) => {
    if (message.type === 'compare-progress') onProgress?.(message.progress);
    else if (message.type === 'compared') finish({ ok: true, comparison: message.comparison });
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
      for (const staging of stagingPaths(stagingBuffer)) rmSync(staging, { recursive: true, force: true });
      finish(cancelled);
    },
  };
}
