import { resolve } from 'node:path';
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import type { CommonPool } from '../../common/compare/common-pool.js';
import type { Comparison } from '../../common/compare/comparison.js';
import { describeFailure } from '../execute-request.js';
import type { JobFailure } from '../job-request.js';
import { spawnWorker, type WorkerScript } from '../../io/worker-script.js';
import { candidatesOf, FROM_THE_APP } from './candidates.js';
import { assessOrSkip, compareCandidates, comparisonBasis, type CandidateAssessment, type CompareProgress } from './compare-jobs.js';
import { checkComparisonCsvPlace, checkComparisonFolderPlace, writeComparisonCsv, writeComparisonFolder } from './comparison-files.js';
import type { CandidateSource, CompareRequest } from './compare-request.js';

/** What a helper thread receives: the same candidates, the ones it assesses, and the pool already drawn. */
export type CompareHelperData = {
  readonly command: 'compare-helper';
  readonly testSeed?: number;
  readonly indices: readonly number[];
  readonly pool: CommonPool;
  readonly port: MessagePort;
} & CandidateSource;

/** The request's candidates as plain data, for the helper to build the same ones. */
function sourceOf(request: CompareRequest): CandidateSource {
  return 'jobPaths' in request ? { jobPaths: request.jobPaths, grid: request.grid, ...(request.maxCandidates !== undefined ? { maxCandidates: request.maxCandidates } : {}) } : { jobs: request.jobs, baseDir: request.baseDir };
}

type HelperReply =
  | { readonly type: 'one' }
  | { readonly type: 'figures'; readonly results: readonly CandidateAssessment[] }
  | { readonly type: 'failed'; readonly failure: JobFailure };

/** A helper's failure, carried as it was described there (its kind decides the exit status). */
export class HelperFailure extends Error {
  constructor(readonly failure: JobFailure) {
    super(failure.message);
  }
}

/**
 * Runs a comparison in the job worker: candidates are split between this
 * thread and a helper thread running the same script (the two cores), the
 * pool being drawn here and handed over, so both answer the same queries; the
 * outputs are written here, each staging path told to the host first.
 */
export async function executeComparison(
  request: CompareRequest,
  hooks: { onProgress: (p: CompareProgress) => void; onStaging: (path: string) => void; helperScript?: WorkerScript },
): Promise<Comparison> {
  const { candidates, skipped } = candidatesOf(request);
  // The outputs' places are checked before any work (and again when written): a refusal costs nothing.
  const jobFiles = [...candidates, ...skipped].map((c) => ('jobPath' in c ? c.jobPath : c.job)).filter((p) => p !== FROM_THE_APP);
  const early = [...new Set(candidates.map((c) => resolve(c.loaded.baseDir, c.loaded.job.input.path))), ...jobFiles];
  if (request.csvPath) checkComparisonCsvPlace(request.csvPath, early);
  if (request.internalDir) checkComparisonFolderPlace(request.internalDir, early);
  let helper: Worker | undefined;
  // A candidate refused here must not leave the helper working on: the command waits for every thread.
  const comparison = await compareCandidates(candidates, {
    ...(request.testSeed !== undefined ? { testSeed: request.testSeed } : {}),
    skipped,
    onProgress: hooks.onProgress,
    ...(hooks.helperScript && candidates.length > 1
      ? {
          elsewhere: (basis, oneDone) => {
            const indices = candidates.map((_, i) => i).filter((i) => i % 2 === 1);
            const { port1, port2 } = new MessageChannel();
            const data: CompareHelperData = { command: 'compare-helper', ...sourceOf(request), ...(request.testSeed !== undefined ? { testSeed: request.testSeed } : {}), indices, pool: basis.pool, port: port2 };
            const worker = spawnWorker(hooks.helperScript!, { workerData: data, transferList: [port2] });
            helper = worker;
            const results = new Promise<readonly CandidateAssessment[]>((resolve, reject) => {
              const answer = (reply: HelperReply): void => {
                if (reply.type === 'one') oneDone();
                else if (reply.type === 'figures') resolve(reply.results);
                else reject(new HelperFailure(reply.failure));
              };
              port1.on('message', answer);
              worker.once('error', (error) => reject(error));
              // The helper ends once it has posted its figures: its exit can be seen here before
              // its last messages are, so those still on the port are read first.
              worker.once('exit', (code) => {
                for (let got = receiveMessageOnPort(port1); got; got = receiveMessageOnPort(port1)) answer(got.message as HelperReply);
                reject(new Error(`the comparison's helper thread stopped (exit ${code})`));
              });
            }).finally(() => {
              port1.close();
              void worker.terminate();
            });
            // Its failure is reported when awaited; until then it must not count as unhandled.
            results.catch(() => undefined);
            return { indices: new Set(indices), results };
          },
        }
      : {}),
  }).finally(() => void helper?.terminate());
  const inputs = [comparison.input.path, ...jobFiles];
  if (request.csvPath) writeComparisonCsv(request.csvPath, comparison, inputs, hooks.onStaging);
  if (request.internalDir) writeComparisonFolder(request.internalDir, comparison, inputs, hooks.onStaging);
  return comparison;
}

/** The helper thread's side: the same candidates and basis (the pool as drawn), its share of them assessed. */
export function serveCompareHelper(data: CompareHelperData): void {
  try {
    // The same candidates as the main thread (the same skipped before any work), so the indices name the same ones.
    const { candidates } = candidatesOf(data);
    const basis = comparisonBasis(candidates, data.testSeed, data.pool);
    const results = data.indices.map((i) => {
      const r = assessOrSkip(candidates[i]!, basis, data.testSeed);
      data.port.postMessage({ type: 'one' } satisfies HelperReply);
      return r;
    });
    data.port.postMessage({ type: 'figures', results } satisfies HelperReply);
  } catch (error) {
    data.port.postMessage({ type: 'failed', failure: describeFailure(error) } satisfies HelperReply);
  }
}
