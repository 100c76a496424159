import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { keepWorkerWarm, prestartWorker, spawnWorker, stopWarmWorkers } from '../../src/io/worker-script.js';

/*
 * Threads started ahead of their work (prestartWorker): a run starts the risk profile's thread while
 * the other core is idle, and the command line its job worker before it loads its own code. The one
 * started for a purpose must be the one handed out for it, with the data a new thread would have had,
 * and nothing else may take it; one never taken is stopped.
 */
const dir = mkdtempSync(join(tmpdir(), 'custos-warm-'));
// A script speaking the job worker's protocol for this: `warm` waits for its data; any data is echoed
// on the port it carries, with the thread's id, so the test knows which thread did the work.
const script = pathToFileURL(join(dir, 'echo-worker.mjs'));
writeFileSync(
  script,
  `import { parentPort, threadId, workerData } from 'node:worker_threads';
function begin(data) {
  if (data.command === 'warm') { parentPort.once('message', begin); return; }
  data.port.postMessage({ threadId, value: data.value, bytes: data.buffer ? data.buffer.byteLength : -1 });
  // Done with its work: waits for more, as a thread that read a file's part does (keepWorkerWarm).
  if (data.waitAfter) { parentPort.once('message', begin); return; }
  // Stays until it is stopped, as a helper that is still working does.
  setInterval(() => undefined, 1000);
}
begin(workerData);
`,
);

/** Waits (with the event loop running) for the echo of `port`. */
async function echoOf(port: MessagePort | import('node:worker_threads').MessagePort): Promise<{ threadId: number; value: unknown; bytes: number }> {
  for (let i = 0; i < 400; i++) {
    const got = receiveMessageOnPort(port as import('node:worker_threads').MessagePort);
    if (got) return got.message as { threadId: number; value: unknown; bytes: number };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no echo');
}

const started: Worker[] = [];
function spawnEcho(value: unknown, purpose?: string, extra: object = {}, waitAfter = false): { worker: Worker; threadId: number; port: import('node:worker_threads').MessagePort; buffer: ArrayBuffer } {
  const { port1, port2 } = new MessageChannel();
  const buffer = new ArrayBuffer(1024);
  const worker = spawnWorker(script, { workerData: { command: 'echo', value, port: port2, buffer, waitAfter }, transferList: [port2, buffer], ...extra }, purpose);
  started.push(worker);
  return { worker, threadId: worker.threadId, port: port1, buffer };
}

afterEach(async () => {
  stopWarmWorkers();
  await Promise.all(started.splice(0).map((w) => w.terminate()));
});

describe('threads started ahead of their work', () => {
  it('the thread started for a purpose is the one its work gets, with the data, ports and moved buffers a new thread would have', async () => {
    prestartWorker(script, 'profile');
    // Let it load first, as a run does.
    await new Promise((r) => setTimeout(r, 300));
    const { threadId, port, buffer } = spawnEcho({ n: 1 }, 'profile');
    const echo = await echoOf(port);
    expect(echo.value).toEqual({ n: 1 });
    expect(echo.threadId).toBe(threadId);
    // Moved, not copied: the buffer is gone from this thread and whole on the other.
    expect(buffer.byteLength).toBe(0);
    expect(echo.bytes).toBe(1024);
    // Only one was started: the next piece of work gets a new thread.
    const next = spawnEcho('second', 'profile');
    expect(next.threadId).not.toBe(threadId);
    expect((await echoOf(next.port)).value).toBe('second');
  });

  it('work of another purpose, or with options beyond its data, never takes it', async () => {
    prestartWorker(script, 'profile');
    const other = spawnEcho('other', 'pool');
    const limited = spawnEcho('limited', 'profile', { resourceLimits: { maxOldGenerationSizeMb: 256 } });
    const unnamed = spawnEcho('unnamed');
    const own = spawnEcho('own', 'profile');
    // The one started ahead is the oldest thread: each later spawn is a thread of its own.
    const ids = [other, limited, unnamed, own].map((s) => s.threadId);
    expect(new Set(ids).size).toBe(4);
    expect(Math.min(...ids)).toBe(own.threadId);
    for (const s of [other, limited, unnamed, own]) expect((await echoOf(s.port)).threadId).toBe(s.threadId);
  });

  it('a thread started ahead and never taken is stopped by stopWarmWorkers; one that stopped first is not handed out', async () => {
    prestartWorker(script, 'unused');
    prestartWorker(script, 'gone');
    // Both are waiting; stopping them ends their threads.
    stopWarmWorkers();
    const taken = spawnEcho('after stop', 'unused');
    expect((await echoOf(taken.port)).value).toBe('after stop');
    // A fresh thread, not one of the stopped ones (which would never answer).
    const again = spawnEcho('gone again', 'gone');
    expect((await echoOf(again.port)).value).toBe('gone again');
  });

  it('a thread kept after its work (keepWorkerWarm) is the next one started ahead, whatever its purpose, and gets that work', async () => {
    const reader = spawnEcho('a part', undefined, {}, true);
    await echoOf(reader.port);
    keepWorkerWarm(script, reader.worker);
    // Not handed to work that was not started ahead: only prestartWorker takes it.
    const unnamed = spawnEcho('unnamed', 'profile');
    expect(unnamed.threadId).not.toBe(reader.threadId);
    prestartWorker(script, 'pool');
    const pool = spawnEcho('pool work', 'pool');
    expect(pool.threadId).toBe(reader.threadId);
    const echo = await echoOf(pool.port);
    expect(echo).toEqual({ threadId: reader.threadId, value: 'pool work', bytes: 1024 });
    // Taken once: the next prestart starts a thread of its own.
    prestartWorker(script, 'profile');
    const profile = spawnEcho('profile work', 'profile');
    expect(profile.threadId).not.toBe(reader.threadId);
    expect((await echoOf(profile.port)).value).toBe('profile work');
  });

  it('a kept thread nothing takes is stopped by stopWarmWorkers', async () => {
    const reader = spawnEcho('a part', undefined, {}, true);
    await echoOf(reader.port);
    keepWorkerWarm(script, reader.worker);
    const exited = new Promise<number>((r) => reader.worker.once('exit', r));
    stopWarmWorkers();
    await expect(exited).resolves.toBeTypeOf('number');
    // And never handed out afterwards.
    prestartWorker(script, 'pool');
    expect(spawnEcho('fresh', 'pool').threadId).not.toBe(reader.threadId);
  });

  it('a handed-out thread keeps the process alive like a new one, until its taker lets it go', async () => {
    prestartWorker(script, 'kept');
    const { worker, port } = spawnEcho('kept', 'kept');
    await echoOf(port);
    // A thread that keeps the process alive is an active handle (its message port); a waiting
    // thread started ahead is not, and would let the command line exit before its work is done.
    const handles = (): number => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;
    const kept = handles();
    worker.unref();
    expect(kept - handles()).toBe(1);
  });
});
