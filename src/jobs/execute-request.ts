import { ReviewFailedError } from './review/review-error.js';
import type { WorkerScript } from '../io/worker-script.js';
import { CryptoRandomSource, SeededTestRandomSource, type RandomSource } from '../common/random/source.js';
import { InputError } from '../io/input/input-error.js';
import { JobError } from '../common/job/job-error.js';
import type { JobFailure, JobRequest } from './job-request.js';
import { loadJobFile, parseJob } from './load-job.js';
import { CancelledError, type ProgressListener } from './progress.js';
import { assessJob, runJob, type RunOptions, type RunResult } from './run-job.js';
import { describeErrno } from '../io/input/file-kind.js';

export function randomSourceFor(request: JobRequest): RandomSource {
  return request.testSeed === undefined ? new CryptoRandomSource() : new SeededTestRandomSource(request.testSeed);
}

/** Runs a request in the current thread: the worker's body, and the plain-function IPC handler. */
export async function executeRequest(
  request: JobRequest,
  hooks: { onProgress?: ProgressListener; onStaging?: (path: string) => void; signal?: AbortSignal; readTable?: RunOptions['readTable']; helperScript?: WorkerScript } = {},
): Promise<RunResult> {
  // A chain of methods is run and assessed (its two steps made in memory, src/jobs/chain/run-chain.ts).
  const chains = { chains: true };
  const loaded = 'jobPath' in request ? loadJobFile(request.jobPath, chains) : parseJob(request.job, request.baseDir, undefined, chains);
  const options = {
    random: randomSourceFor(request),
    ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
    ...(hooks.onStaging ? { onStaging: hooks.onStaging } : {}),
    ...(hooks.signal ? { signal: hooks.signal } : {}),
    ...(hooks.readTable ? { readTable: hooks.readTable } : {}),
    ...(hooks.helperScript ? { helperScript: hooks.helperScript } : {}),
    ...(request.outDir ? { outDir: request.outDir } : {}),
    ...(request.internalDir ? { internalDir: request.internalDir } : {}),
    ...(request.comparison ? { comparison: request.comparison } : {}),
  };
  return request.command === 'assess' ? { report: assessJob(loaded, options) } : runJob(loaded, options);
}

const READ_SYSCALLS = new Set(['read', 'scandir', 'stat', 'lstat', 'realpath', 'readlink']);

/** Classifies any thrown value for the host and the exit code. */
export function describeFailure(error: unknown): JobFailure {
  if (error instanceof ReviewFailedError) return { kind: 'review', message: error.message, key: 'review' };
  if (error instanceof JobError) return { kind: 'job', message: error.message, ...(error.key ? { key: error.key } : {}), issues: error.issues };
  if (error instanceof InputError) {
    return {
      kind: 'input', message: error.message, file: error.file, reason: error.reason,
      ...(error.line !== undefined ? { line: error.line } : {}),
      ...(error.column !== undefined ? { column: error.column } : {}),
      ...(error.context.format ? { format: error.context.format } : {}),
      ...(error.context.sheet !== undefined ? { sheet: error.context.sheet } : {}),
      ...(error.context.sheets ? { sheets: [...error.context.sheets] } : {}),
      ...(error.context.advice ? { advice: error.context.advice } : {}),
    };
  }
  if (error instanceof CancelledError) return { kind: 'cancelled', message: 'cancelled; nothing was written' };
  // A file system refusal while writing (disk full, read-only, permissions): plain words, no stack trace.
  const errno = error as NodeJS.ErrnoException;
  if (error instanceof Error && typeof errno.code === 'string' && typeof errno.syscall === 'string') {
    // Inputs are read through InputError, so a bare errno during a job is almost always a write; a read is named as one.
    const action = READ_SYSCALLS.has(errno.syscall) ? 'read' : 'write';
    return { kind: 'internal', message: `cannot ${action} ${errno.path ?? 'the output'}: ${describeErrno(errno.code, action)}; nothing was written`, ...(errno.path ? { file: errno.path } : {}) };
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { kind: 'internal', message };
}
