import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * What a worker thread runs: a bundled script file, or, in the single-file executable (which has
 * no script files beside it), the program's own source, run with `eval`.
 */
export type WorkerScript = URL | { readonly source: string };

export function spawnWorker(script: WorkerScript, options: WorkerOptions): Worker {
  return script instanceof URL ? new Worker(script, options) : new Worker(script.source, { ...options, eval: true });
}
