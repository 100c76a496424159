import { Worker } from 'node:worker_threads';
import type { ServiceCall, ServiceReply } from './table-service.js';
import type { ServeRequest, ServiceCallEnvelope, ServiceReplyEnvelope } from '../worker-protocol.js';

type Pending = { readonly resolve: (reply: ServiceReply<ServiceCall['call']>) => void };

/**
 * The host's side of the long-lived worker: calls go out with an id and come
 * back in order. The worker starts with the first call (and again after a
 * crash, which fails the calls it was holding, never the host).
 */
export class ServiceClient {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly workerUrl: URL) {}

  call<K extends ServiceCall['call']>(request: Extract<ServiceCall, { call: K }>): Promise<ServiceReply<K>> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve: resolve as Pending['resolve'] });
      worker.postMessage({ id, request } satisfies ServiceCallEnvelope);
    });
  }

  /** Starts the worker ahead of the first call, so the first file opens without waiting for it. */
  warmUp(): void {
    this.start();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerUrl, { workerData: { command: 'serve' } satisfies ServeRequest });
    // An idle worker must not keep a command-line host alive.
    worker.unref();
    const failAll = (message: string): void => {
      if (this.worker === worker) this.worker = undefined;
      for (const [, p] of this.pending) p.resolve({ ok: false, failure: { kind: 'internal', message } });
      this.pending.clear();
    };
    worker.on('message', (message: ServiceReplyEnvelope) => {
      const p = this.pending.get(message.id);
      this.pending.delete(message.id);
      p?.resolve(message.reply);
    });
    worker.on('error', (error) => failAll(`the table worker failed: ${error.message}`));
    worker.on('exit', (code) => failAll(`the table worker stopped unexpectedly (exit ${code})`));
    this.worker = worker;
    return worker;
  }
}
