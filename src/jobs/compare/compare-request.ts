import type { Comparison } from '../../common/compare/comparison.js';
import type { JobFailure } from '../job-request.js';
import type { CompareProgress } from './compare-jobs.js';

/** What the command line asks the job worker to compare. Plain data: it crosses thread boundaries. */
export interface CompareRequest {
  readonly command: 'compare';
  readonly jobPaths: readonly string[];
  /** The --grid texts as written (KEY=V1,V2). */
  readonly grid: readonly string[];
  readonly testSeed?: number;
  readonly internalDir?: string;
  readonly csvPath?: string;
}

export type CompareMessage =
  | { readonly type: 'compare-progress'; readonly progress: CompareProgress }
  | { readonly type: 'compared'; readonly comparison: Comparison }
  | { readonly type: 'failed'; readonly failure: JobFailure };
