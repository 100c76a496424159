import type { Comparison } from '../../common/compare/comparison.js';
import type { JobFailure } from '../job-request.js';
import type { CompareProgress } from './compare-jobs.js';

/** A candidate the app built: a job object as `run` takes it, its label, and the grid values it stands for. */
export interface CandidateJob {
  readonly label: string;
  readonly job: unknown;
  readonly grid: readonly { readonly key: string; readonly value: string }[];
}

/**
 * Where the candidates come from: job files and --grid texts (the command line),
 * or job objects whose relative paths resolve against baseDir (the app).
 */
export type CandidateSource =
  | {
      readonly jobPaths: readonly string[];
      /** The --grid texts as written (KEY=V1,V2). */
      readonly grid: readonly string[];
      /** --max-candidates: the cap, MAX_CANDIDATES unless raised (at most MAX_CANDIDATES_LIMIT). */
      readonly maxCandidates?: number;
    }
  | { readonly jobs: readonly CandidateJob[]; readonly baseDir: string };

/** What a host asks the job worker to compare. Plain data: it crosses thread boundaries. */
export type CompareRequest = {
  readonly command: 'compare';
  readonly testSeed?: number;
  readonly internalDir?: string;
  readonly csvPath?: string;
} & CandidateSource;

export type CompareMessage =
  | { readonly type: 'compare-progress'; readonly progress: CompareProgress }
  | { readonly type: 'compared'; readonly comparison: Comparison }
  | { readonly type: 'failed'; readonly failure: JobFailure };
