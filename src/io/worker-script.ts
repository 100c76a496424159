import { MessageChannel, Worker, type MessagePort, type TransferListItem, type WorkerOptions } from 'node:worker_threads';

/**
 * What a worker thread runs: a bundled script file, or, in the single-file executable (which has
 * no script files beside it), the program's own source, run with `eval`.
 */
export type WorkerScript = URL | { readonly source: string };

/**
 * What a thread started ahead of its work is started with: it loads its script, then waits for one
 * message, which is the data it would otherwise have been started with (`spawnWorker`).
 */
export interface WarmStart {
  readonly command: 'warm';
}

/** Warm threads are kept by script and by the work they are started for, so another helper never takes one first. */
const scriptKey = (script: WorkerScript, purpose: string): string => `${purpose}\n${script instanceof URL ? script.href : script.source}`;

/** A thread started ahead of its work, with the listener that forgets it should it stop first. */
interface WarmWorker {
  readonly worker: Worker;
  readonly drop: () => void;
}

/** Threads of each script started ahead of their work and not yet handed any, oldest first. */
const warm = new Map<string, WarmWorker[]>();

function start(script: WorkerScript, options: WorkerOptions): Worker {
  return script instanceof URL ? new Worker(script, options) : new Worker(script.source, { ...options, eval: true });
}

/**
 * Starts a thread of `script` for the work named `purpose` before that work is known. Loading the script costs a thread
 * about a fifth of a second of a core; a run starts them while the other core has nothing to do
 * (reading has ended), so the helper that later takes one starts working at once instead of
 * loading then, when both cores are busy. Each waits for its data; `stopWarmWorkers` stops those
 * never taken. A thread that failed to start is not handed out (its error is not an error of any work).
 */
export function prestartWorker(script: WorkerScript, purpose: string): void {
  // A thread done with its work and waiting for more (keepWorkerWarm) is taken first: it has loaded the script.
  const done = warm.get(scriptKey(script, ANY_PURPOSE))?.shift();
  // One that has ended (its exit not yet announced) has no thread id left.
  if (done && done.worker.threadId >= 0) {
    keep(taken(done), scriptKey(script, purpose));
    return;
  }
  let worker: Worker;
  try {
    worker = start(script, { workerData: { command: 'warm' } satisfies WarmStart });
  } catch {
    return;
  }
  keep(worker, scriptKey(script, purpose));
}

/** What a thread kept by keepWorkerWarm waits under: the next prestartWorker of its script, for any work, takes it. */
const ANY_PURPOSE = '';

/**
 * Keeps a helper thread that has finished its work (a file's second part, read) and waits for more,
 * as a thread started ahead: the next prestartWorker of the same script takes it instead of starting
 * one, so a run loads the helpers' script once less. `stopWarmWorkers` stops it if nothing does.
 */
export function keepWorkerWarm(script: WorkerScript, worker: Worker): void {
  keep(worker, scriptKey(script, ANY_PURPOSE));
}

/** A waiting thread's worker, no longer forgotten when it stops: whoever took it answers for it now. */
function taken(entry: WarmWorker): Worker {
  entry.worker.off('error', entry.drop);
  entry.worker.off('exit', entry.drop);
  return entry.worker;
}

function keep(worker: Worker, key: string): void {
  // Never keeps the process alive while it waits.
  worker.unref();
  const entry: WarmWorker = {
    worker,
    drop: () => {
      const list = warm.get(key);
      const at = list?.indexOf(entry) ?? -1;
      if (at >= 0) list!.splice(at, 1);
    },
  };
  worker.once('error', entry.drop);
  worker.once('exit', entry.drop);
  warm.set(key, [...(warm.get(key) ?? []), entry]);
}

/** Stops every thread started ahead and never handed work (a run calls it when it ends, however it ends). */
export function stopWarmWorkers(): void {
  for (const list of warm.values()) for (const { worker } of list.splice(0)) void worker.terminate();
  warm.clear();
}

/**
 * A thread running `script` with `options.workerData`: one started ahead for `purpose`
 * (`prestartWorker`) when there is one and the options ask for nothing but data, posted its data
 * now; otherwise a new one.
 */
export function spawnWorker(script: WorkerScript, options: WorkerOptions, purpose?: string): Worker {
  const onlyData = Object.keys(options).every((k) => k === 'workerData' || k === 'transferList');
  const ready = purpose !== undefined && onlyData ? warm.get(scriptKey(script, purpose))?.shift() : undefined;
  if (ready) {
    // From here on it is the taker's thread: its errors are the work's, as a new thread's would be.
    const worker = taken(ready);
    // As a new thread: it keeps the process alive until its taker lets it go (unref).
    worker.ref();
    worker.postMessage(options.workerData, [...(options.transferList ?? [])]);
    return worker;
  }
  return start(script, options);
}

/** A helper thread that talks over a port of its own (the job's side of the channel). */
export interface HelperThread {
  readonly worker: Worker;
  readonly port: MessagePort;
  /** Whether `close` was called. */
  readonly closed: boolean;
  /** Closes the port and stops the thread; once. */
  close(): void;
}

/**
 * Starts a helper thread of `script` (`spawnWorker`, for `purpose` when one was started ahead) with
 * the data `data` makes around the helper's end of a new channel, moved with `transfer`. It never
 * keeps a finished job (or the command line) waiting. Undefined when no thread can start: the
 * caller then does the work itself.
 */
export function startHelperThread(script: WorkerScript, data: (port: MessagePort) => unknown, transfer: readonly TransferListItem[] = [], purpose?: string): HelperThread | undefined {
  const { port1, port2 } = new MessageChannel();
  let worker: Worker;
  try {
    worker = spawnWorker(script, { workerData: data(port2), transferList: [port2, ...transfer] }, purpose);
    worker.unref();
  } catch {
    port1.close();
    return undefined;
  }
  let closed = false;
  return {
    worker,
    port: port1,
    get closed() {
      return closed;
    },
    close() {
      if (closed) return;
      closed = true;
      port1.close();
      void worker.terminate();
    },
  };
}
