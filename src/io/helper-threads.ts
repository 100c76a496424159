import type { TransferListItem, Worker } from 'node:worker_threads';
import { spawnWorker, type WorkerScript } from './worker-script.js';

/**
 * One-shot helper threads (a second reader of a file, the risk profile) kept for the next one-shot
 * helper instead of stopped: each new thread loads the whole job-worker script, about a quarter of a
 * second of a core, and a run at a million rows started the risk profile's thread just when its
 * figures were needed. A helper whose work ended well is handed back (`release`); the next helper's
 * work is posted to it as `{ helperWork }` (job-worker.ts serves it as if it had started with it).
 * A thread that failed, or whose work was abandoned, is stopped (`stop`), never reused.
 */

/** How the helper's work reaches an idle thread: the worker script dispatches it like its start data. */
export interface HelperWorkMessage {
  readonly helperWork: unknown;
}

export interface HelperThread {
  readonly worker: Worker;
  /** The work ended well: the thread waits, unreferenced, for the next helper (the caller drops it). */
  release(): void;
  /** Stops the thread (its work failed or is no longer wanted). */
  stop(): void;
}

/** An idle thread is stopped after this long unused: the app's worker lives on between runs. */
const IDLE_MS = 30_000;

const idle = new Map<string, { worker: Worker; timer: NodeJS.Timeout }[]>();
const watched = new WeakSet<Worker>();

const keyOf = (script: WorkerScript): string => (script instanceof URL ? `url:${script.href}` : `eval:${script.source}`);

/** Starts one-shot helper work on an idle thread of the script, or on a new one. */
export function startHelper(script: WorkerScript, work: unknown, transferList: readonly TransferListItem[]): HelperThread {
  const key = keyOf(script);
  const waiting = idle.get(key);
  const kept = waiting?.pop();
  let worker: Worker;
  if (kept) {
    clearTimeout(kept.timer);
    worker = kept.worker;
    worker.postMessage({ helperWork: work } satisfies HelperWorkMessage, [...transferList]);
  } else {
    worker = spawnWorker(script, { workerData: work, transferList: [...transferList] });
  }
  // A helper must never keep a finished job (or the command line) waiting.
  worker.unref();
  let done = false;
  return {
    worker,
    release() {
      if (done) return;
      done = true;
      const entry = { worker, timer: setTimeout(() => forget(key, worker, true), IDLE_MS).unref() };
      // A thread that dies while idle (out of memory, say) is not handed out again.
      if (!watched.has(worker)) {
        watched.add(worker);
        worker.on('exit', () => forget(key, worker, false));
      }
      const list = idle.get(key) ?? [];
      list.push(entry);
      idle.set(key, list);
    },
    stop() {
      if (done) return;
      done = true;
      void worker.terminate();
    },
  };
}

function forget(key: string, worker: Worker, terminate: boolean): void {
  const list = idle.get(key);
  const at = list?.findIndex((entry) => entry.worker === worker) ?? -1;
  if (list && at >= 0) {
    clearTimeout(list[at]!.timer);
    list.splice(at, 1);
  }
  if (terminate) void worker.terminate();
}

/** Stops every idle thread (a test's end, or a host shutting down). */
export function stopIdleHelpers(): void {
  for (const [key, list] of idle) for (const { worker } of [...list]) forget(key, worker, true);
}
