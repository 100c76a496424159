import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { uniformInt } from '../../common/random/draws.js';
import { CryptoRandomSource, SeededTestRandomSource, type RandomSource } from '../../common/random/source.js';
import type { ReleaseRows } from '../../common/table/release-rows.js';
import { adoptLattice, drawQueryPool, latticeOf, poolRelativeError, type CountColumn, type QueryPool } from '../../common/utility/query-pool.js';
import type { TupleLattice } from '../../common/utility/tuple-lattice.js';
import type { JobWith } from '../../common/job/job-parts.js';
import type { ImportedTable } from '../../io/input/import-types.js';
import { analyze, type Analysis, type RandomizedSpec } from './analyze.js';
import type { MethodContext } from './method-context.js';
import { spawnWorker, type WorkerScript } from '../../io/worker-script.js';

/**
 * The utility figure of a randomized release (a pool of count queries drawn on
 * the input, answered on the release and on plain randomized response) costs
 * more than the release itself. On a second thread it runs beside the work
 * that does not need it: the pool is drawn while the release is made, and the
 * comparison release is answered while the release is. Results are the same
 * as on one thread; the job's thread waits only where it needs an answer.
 */
export interface UtilityWork {
  /** The pool, once drawn (waits for it). */
  pool(): QueryPool;
  /**
   * Starts answering the pool on a release on the helper thread (the job's thread answers its own
   * release meanwhile); the function returned waits for the mean relative error.
   */
  relativeErrorElsewhere(release: ReleaseRows, p: number): () => number;
  close(): void;
}

type HelperRequest =
  | { readonly type: 'pool'; readonly columns: readonly CountColumn[]; readonly values: Uint32Array; readonly m: number; readonly seed: number | null }
  | { readonly type: 'error'; readonly release: ReleaseRows; readonly p: number };
type HelperReply = { readonly type: 'pool'; readonly pool: QueryPool; readonly lattice: TupleLattice | null } | { readonly type: 'error'; readonly value: number } | { readonly type: 'failed'; readonly message: string };

/** What the helper thread receives when it starts. */
export interface HelperData {
  readonly command: 'utility-helper';
  readonly port: MessagePort;
  readonly signal: SharedArrayBuffer;
}

/**
 * The helper receives copies of the columns, the sensitive values and the comparison release, and
 * builds its own counting structures: beyond this many bytes of copies the second core costs more
 * memory than its time is worth (10M rows: 2.3 GiB peak with the helper, 1.4 GiB without).
 */
const HELPER_COPY_LIMIT = 256 * 2 ** 20;

/** The same work on this thread: where no helper thread can be started (in-process runs) or its copies would cost too much memory. */
function inline(random: RandomSource, columns: readonly CountColumn[], values: Uint32Array, m: number): UtilityWork {
  let drawn: QueryPool | undefined;
  const pool = (): QueryPool => (drawn ??= drawQueryPool(random, columns, values, m));
  return {
    pool,
    relativeErrorElsewhere: (release, p) => {
      const value = poolRelativeError(pool(), columns, release, 0, p, m);
      return () => value;
    },
    close: () => undefined,
  };
}

/**
 * Starts drawing the pool: on a helper thread running `helperScript` (the job worker's own script)
 * when given, else here. A seeded run gives the helper a seed drawn from its own generator, so a
 * test run stays reproducible; a real run's helper uses the cryptographic generator.
 */
export function startUtilityWork(helperScript: WorkerScript | undefined, random: RandomSource, columns: readonly CountColumn[], values: Uint32Array, m: number): UtilityWork {
  const copies = values.length * 4 * (columns.length + 3);
  if (!helperScript || copies > HELPER_COPY_LIMIT) return inline(random, columns, values, m);
  const signal = new SharedArrayBuffer(4);
  const flag = new Int32Array(signal);
  const { port1, port2 } = new MessageChannel();
  let worker: Worker;
  try {
    worker = spawnWorker(helperScript, { workerData: { command: 'utility-helper', port: port2, signal } satisfies HelperData, transferList: [port2] });
    // It must never keep a finished job (or the command line) waiting.
    worker.unref();
  } catch {
    return inline(random, columns, values, m);
  }
  const receive = (): HelperReply => {
    for (;;) {
      const seen = Atomics.load(flag, 0);
      const got = receiveMessageOnPort(port1);
      if (got) {
        const reply = got.message as HelperReply;
        if (reply.type === 'failed') throw new Error(`the utility helper failed: ${reply.message}`);
        return reply;
      }
      // Woken when the helper has posted; the time limit only guards against a helper that died.
      if (Atomics.wait(flag, 0, seen, 120_000) === 'timed-out') throw new Error('the utility helper stopped answering');
    }
  };
  const plain = columns.map((c) => ({ codes: c.codes, distinct: c.distinct, dictionary: { length: c.dictionary.length } }));
  const seed = random.deterministic ? uniformInt(random, 2 ** 32) : null;
  port1.postMessage({ type: 'pool', columns: plain, values, m, seed } satisfies HelperRequest);
  let drawn: QueryPool | undefined;
  const pool = (): QueryPool => {
    if (!drawn) {
      const reply = receive();
      if (reply.type !== 'pool') throw new Error('the utility helper answered out of order');
      drawn = reply.pool;
      // The helper's tuple lattice (built for the draw) serves this thread's answers too.
      if (reply.lattice) adoptLattice(columns, reply.lattice);
    }
    return drawn;
  };
  return {
    pool,
    relativeErrorElsewhere: (release, p) => {
      pool();
      port1.postMessage({ type: 'error', release, p } satisfies HelperRequest);
      return () => {
        const reply = receive();
        if (reply.type !== 'error') throw new Error('the utility helper answered out of order');
        return reply.value;
      };
    },
    close: () => {
      port1.close();
      void worker.terminate();
    },
  };
}

/**
 * The analysis of a randomized-response job, with the utility figure's query pool started on the
 * helper from the moment a single sensitive column's codes are known (runs only), so it is drawn
 * while the micro groups are formed and the release is made. A setting the analysis refuses
 * leaves no helper behind.
 */
export function analyzeStartingUtility(job: JobWith<RandomizedSpec>, imported: ImportedTable, ctx: MethodContext): { analysis: Analysis; early: UtilityWork | undefined } {
  let early: UtilityWork | undefined;
  try {
    const analysis = analyze(job, imported, (plan, coded) => {
      if (ctx.mode === 'run' && ctx.measureUtility !== false && coded.length === 1) early = startUtilityWork(ctx.helperScript, ctx.random, plan.nonSensitive, coded[0]!.values, coded[0]!.m);
    });
    return { analysis, early };
  } catch (error) {
    early?.close();
    throw error;
  }
}

/** The helper thread's side: draws the pool, then answers it on each release it is sent. */
export function serveUtilityWork(data: HelperData): void {
  const flag = new Int32Array(data.signal);
  let state: { columns: readonly CountColumn[]; m: number; pool: QueryPool } | undefined;
  const reply = (message: HelperReply): void => {
    data.port.postMessage(message);
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  data.port.on('message', (request: HelperRequest) => {
    try {
      if (request.type === 'pool') {
        const random = request.seed === null ? new CryptoRandomSource() : new SeededTestRandomSource(request.seed);
        const pool = drawQueryPool(random, request.columns, request.values, request.m);
        state = { columns: request.columns, m: request.m, pool };
        reply({ type: 'pool', pool, lattice: request.columns.length > 0 && pool.queries.length > 0 ? latticeOf(request.columns) : null });
      } else {
        if (!state) throw new Error('a release came before the pool');
        reply({ type: 'error', value: poolRelativeError(state.pool, state.columns, request.release, 0, request.p, state.m) });
      }
    } catch (error) {
      reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  });
}
