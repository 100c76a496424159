import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { uniformInt } from '../../common/random/draws.js';
import { CryptoRandomSource, SeededTestRandomSource, type RandomSource } from '../../common/random/source.js';
import type { ReleaseRows } from '../../common/table/release-rows.js';
import { drawQueryPool, offerMicroGroups, poolRelativeError, type CountColumn, type QueryPool } from '../../common/utility/query-pool.js';
import type { BaseGroups, BaseValueCounts } from '../../common/utility/tuple-lattice.js';
import type { JobWith } from '../../common/job/job-parts.js';
import type { ImportedTable } from '../../io/input/import-types.js';
import { analyze, type Analysis, type RandomizedSpec } from './analyze.js';
import { quasiAreNonSensitive } from './plan.js';
import { keepTupleIds } from '../../common/table/known-tuple-ids.js';
import type { MethodContext } from './method-context.js';
import type { MethodOutcome } from './outcome.js';
import { prestartWorker, startHelperThread, type WorkerScript } from '../../io/worker-script.js';

/**
 * The utility figure of a randomized release (a pool of count queries drawn on
 * the input, answered on the release and on plain randomized response) costs
 * more than the release itself, and only the internal report shows it. On a
 * second thread it runs beside everything that does not need it: the pool is
 * drawn while the micro groups are formed and the release is made, and the
 * releases are answered while the job's thread writes the release folder. The
 * job's thread waits only when it writes the internal report. Results are the
 * same as on one thread.
 */
export interface UtilityWork {
  /** Queues a release to answer the pool on: at once on the helper thread, else when settled. */
  answer(release: ReleaseRows, sensitiveIndex: number, p: number): void;
  /** Waits for the pool and for the mean relative error of each queued release (in queue order); then closes. */
  settle(): MeasuredUtility;
  /** Stops the work (idempotent): its thread ends, its copies are freed. */
  close(): void;
}

/** What the report shows of a pool answered on releases. */
export interface MeasuredUtility {
  readonly queries: number;
  readonly attempts: number;
  /** Mean relative error on each queued release, in queue order (NaN for an empty pool). */
  readonly errors: readonly number[];
}

type HelperRequest =
  | { readonly type: 'pool'; readonly columns: readonly CountColumn[]; readonly groups: BaseGroups | null; readonly counts: GroupCounts | null; readonly values: Uint32Array; readonly m: number; readonly seed: number | null }
  | { readonly type: 'error'; readonly release: ReleaseRows; readonly p: number }
  | { readonly type: 'settle' };
type HelperReply = { readonly type: 'settled'; readonly measured: MeasuredUtility } | { readonly type: 'failed'; readonly message: string };

/** The micro groups' counts of the sensitive values (group g's are entries [start[g], start[g+1])). */
export type GroupCounts = Omit<BaseValueCounts, 'sensitive'>;

/** What the helper thread receives when it starts. */
export interface HelperData {
  readonly command: 'utility-helper';
  readonly port: MessagePort;
  readonly signal: SharedArrayBuffer;
}

/**
 * The helper receives copies of the columns, the sensitive values and the releases, and
 * builds its own counting structures: beyond this many bytes of copies the second core costs more
 * memory than its time is worth (10M rows: 2.3 GiB peak with the helper, 1.4 GiB without).
 */
const HELPER_COPY_LIMIT = 256 * 2 ** 20;

/** What a thread started ahead for the utility figure is named by (prestartWorker). */
export const UTILITY_HELPER = 'utility-helper';

/**
 * Whether the helper's copies of `rows` rows of `columns` columns stay within HELPER_COPY_LIMIT: the
 * columns, the sensitive values, the groups, two releases of two words a row, and the groups' value
 * counts (at most three words a row).
 */
function helperAffordable(rows: number, columns: number): boolean {
  return rows * 4 * (columns + 9) <= HELPER_COPY_LIMIT;
}

/** One release's rows with only the sensitive column answered (the others need not be copied). */
function onlySensitive(release: ReleaseRows, sensitiveIndex: number): ReleaseRows {
  return { sourceRow: release.sourceRow, sensitive: [release.sensitive[sensitiveIndex]!] };
}

/**
 * The codes in shared memory, for posting to the helper. A posted Uint32Array is serialized into the
 * message and copied again into the helper's heap (at 1M rows some 60 MB, twice, with the page
 * faults of both: about 1 s of CPU); one of shared memory is posted by reference. So each array is
 * copied once here, and the helper reads the copy. The copy is this run's own: nothing writes it.
 */
export function sharedCopy(codes: Uint32Array): Uint32Array {
  if (codes.buffer instanceof SharedArrayBuffer) return codes;
  const copy = new Uint32Array(new SharedArrayBuffer(codes.byteLength));
  copy.set(codes);
  return copy;
}

/** The rows of a release answered on the helper, in shared memory (a column missing stays missing: the helper names the failure). */
function sharedRows(release: ReleaseRows, sensitiveIndex: number): ReleaseRows {
  const { sourceRow, sensitive } = onlySensitive(release, sensitiveIndex);
  return { sourceRow: sharedCopy(sourceRow), sensitive: sensitive.map((s) => (s === undefined ? s : sharedCopy(s))) };
}

function measure(pool: QueryPool, columns: readonly CountColumn[], m: number, queued: readonly { release: ReleaseRows; p: number }[]): MeasuredUtility {
  return { queries: pool.queries.length, attempts: pool.attempts, errors: queued.map((q) => poolRelativeError(pool, columns, q.release, 0, q.p, m)) };
}

/** The same work on this thread, done when settled: where no helper thread can be started (in-process runs) or its copies would cost too much memory. */
function inline(random: RandomSource, columns: readonly CountColumn[], values: Uint32Array, m: number): UtilityWork {
  const queued: { release: ReleaseRows; p: number }[] = [];
  let settled: MeasuredUtility | undefined;
  return {
    answer: (release, sensitiveIndex, p) => void queued.push({ release: onlySensitive(release, sensitiveIndex), p }),
    settle: () => (settled ??= measure(drawQueryPool(random, columns, values, m), columns, m, queued)),
    close: () => void queued.splice(0),
  };
}

/**
 * Starts drawing the pool: on a helper thread running `helperScript` (the job worker's own script)
 * when given, else when settled, here. `groups`, the micro groups of exactly these columns, spare
 * the helper grouping the rows again. A seeded run gives the helper a seed drawn from its own
 * generator, so a test run stays reproducible; a real run's helper uses the cryptographic generator.
 */
export function startUtilityWork(
  helperScript: WorkerScript | undefined,
  random: RandomSource,
  columns: readonly CountColumn[],
  values: Uint32Array,
  m: number,
  groups?: Pick<BaseGroups, 'groupOfRow' | 'groupCount'>,
  counts?: GroupCounts,
): UtilityWork {
  if (!helperScript || !helperAffordable(values.length, columns.length)) return inline(random, columns, values, m);
  const signal = new SharedArrayBuffer(4);
  const flag = new Int32Array(signal);
  const helper = startHelperThread(helperScript, (port) => ({ command: 'utility-helper', port, signal }) satisfies HelperData, [], UTILITY_HELPER);
  if (!helper) return inline(random, columns, values, m);
  const { port: port1, close } = helper;
  const receive = (): HelperReply => {
    for (;;) {
      const seen = Atomics.load(flag, 0);
      const got = receiveMessageOnPort(port1);
      if (got) return got.message as HelperReply;
      // Woken when the helper has posted; the time limit only guards against a helper that died.
      if (Atomics.wait(flag, 0, seen, 120_000) === 'timed-out') throw new Error('the utility helper stopped answering');
    }
  };
  const plain = columns.map((c) => ({ codes: sharedCopy(c.codes), distinct: c.distinct, dictionary: { length: c.dictionary.length } }));
  const seed = random.deterministic ? uniformInt(random, 2 ** 32) : null;
  const shared = groups ? { groupOfRow: sharedCopy(groups.groupOfRow), groupCount: groups.groupCount } : null;
  // The groups' value counts are the pool's weighting of the input rows, already summed (only with the groups they count in).
  const sharedCounts = shared && counts ? { start: sharedCopy(counts.start), values: sharedCopy(counts.values), counts: sharedCopy(counts.counts) } : null;
  port1.postMessage({ type: 'pool', columns: plain, groups: shared, counts: sharedCounts, values: sharedCopy(values), m, seed } satisfies HelperRequest);
  let settled: MeasuredUtility | undefined;
  return {
    answer: (release, sensitiveIndex, p) => port1.postMessage({ type: 'error', release: sharedRows(release, sensitiveIndex), p } satisfies HelperRequest),
    settle: () => {
      if (settled) return settled;
      port1.postMessage({ type: 'settle' } satisfies HelperRequest);
      try {
        const reply = receive();
        if (reply.type === 'failed') throw new Error(`the utility helper failed: ${reply.message}`);
        return (settled = reply.measured);
      } finally {
        close();
      }
    },
    close,
  };
}

/**
 * The utility work of sensitive column k: the one started with the analysis for the first column,
 * else one done on this thread when settled; none when the caller measures utility itself.
 */
export function utilityWorkFor(ctx: MethodContext, early: UtilityWork | undefined, k: number, columns: readonly CountColumn[], values: Uint32Array, m: number): UtilityWork | undefined {
  if (ctx.measureUtility === false) return undefined;
  return k === 0 && early ? early : inline(ctx.random, columns, values, m);
}

/**
 * The analysis of a randomized-response job, with the utility figure's query pool started on the
 * helper as soon as the micro groups of a single sensitive column's job are formed (runs only), so
 * it is drawn while the groups are tested and the release is made. A setting the analysis refuses
 * leaves no helper behind.
 */
export function analyzeStartingUtility(job: JobWith<RandomizedSpec>, imported: ImportedTable, ctx: MethodContext): { analysis: Analysis; early: UtilityWork | undefined } {
  let early: UtilityWork | undefined;
  const measuring = ctx.mode === 'run' && ctx.measureUtility !== false;
  // The helper's thread loads its script while this one forms the micro groups (a run's second core
  // has little to do between reading and the release), so the pool is drawn as soon as they are formed.
  // A job with several sensitive columns leaves it unused: the run stops it when it ends.
  const { rowCount, columns } = imported.table;
  if (measuring && ctx.helperScript && helperAffordable(rowCount, columns.length)) prestartWorker(ctx.helperScript, UTILITY_HELPER);
  try {
    const analysis = analyze(job, imported, ctx.baseDir, (plan, coded, grouping) => {
      // A run's release shows these columns as collected through sourceRow: where they are its
      // quasi-identifiers, the disclosure review's classes are these groups read through it (taken
      // once by the review; an assessment reviews no release, so keeps nothing).
      if (ctx.mode === 'run' && quasiAreNonSensitive(plan)) {
        keepTupleIds(plan.nonSensitive.map((c) => c.codes), grouping.groupOfRow, grouping.groupCount);
      }
      if (measuring && coded.length === 1) early = startUtilityWork(ctx.helperScript, ctx.random, plan.nonSensitive, coded[0]!.values, coded[0]!.m, grouping, coded[0]!.counts);
    });
    return { analysis, early };
  } catch (error) {
    early?.close();
    throw error;
  }
}

/**
 * The outcome of a method whose utility figures are still being measured: `build` makes it from
 * the figures (undefined where none is measured). Where the caller writes the release first
 * (ctx.settleLater), the outcome is built without them and carries the work to settle once the
 * release folder is written; else the method waits for them here. Either way every work is closed.
 */
export function outcomeSettling(ctx: MethodContext, works: readonly (UtilityWork | undefined)[], build: (measured: readonly (MeasuredUtility | undefined)[]) => MethodOutcome): MethodOutcome {
  const abandon = (): void => works.forEach((w) => w?.close());
  const settle = (): MethodOutcome => {
    try {
      return build(works.map((w) => w?.settle()));
    } finally {
      abandon();
    }
  };
  if (!ctx.settleLater || works.every((w) => w === undefined)) return settle();
  try {
    return { ...build(works.map(() => undefined)), pending: { settle, abandon } };
  } catch (error) {
    abandon();
    throw error;
  }
}

/** The helper thread's side: draws the pool, answers each release it is sent, and replies when asked to settle. */
export function serveUtilityWork(data: HelperData): void {
  const flag = new Int32Array(data.signal);
  let state: { columns: readonly CountColumn[]; m: number; pool: QueryPool; errors: number[] } | undefined;
  let failure: string | undefined;
  const reply = (message: HelperReply): void => {
    data.port.postMessage(message);
    Atomics.add(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  data.port.on('message', (request: HelperRequest) => {
    if (failure !== undefined) {
      if (request.type === 'settle') reply({ type: 'failed', message: failure });
      return;
    }
    try {
      if (request.type === 'pool') {
        const random = request.seed === null ? new CryptoRandomSource() : new SeededTestRandomSource(request.seed);
        if (request.groups) offerMicroGroups(request.columns, request.counts ? { ...request.groups, valueCounts: { sensitive: request.values, ...request.counts } } : request.groups);
        state = { columns: request.columns, m: request.m, pool: drawQueryPool(random, request.columns, request.values, request.m), errors: [] };
      } else if (!state) {
        throw new Error('a request came before the pool');
      } else if (request.type === 'error') {
        state.errors.push(poolRelativeError(state.pool, state.columns, request.release, 0, request.p, state.m));
      } else {
        reply({ type: 'settled', measured: { queries: state.pool.queries.length, attempts: state.pool.attempts, errors: state.errors } });
      }
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
      if (request.type === 'settle') reply({ type: 'failed', message: failure });
    }
  });
}
