import type { InputAdvice, InputErrorContext } from '../io/input/input-error.js';
import type { Comparison } from '../common/compare/comparison.js';
import type { Report } from '../common/report/report-model.js';
import type { ProgressEvent } from './progress.js';

/** What a host asks a job worker to do. Plain data: it crosses thread boundaries. */
export type JobRequest = {
  readonly command: 'assess' | 'run';
  readonly outDir?: string;
  /** Overrides output.internalDir, where the confidential report goes. */
  readonly internalDir?: string;
  /** Seeded test randomness; hosts accept it only under CUSTOS_TEST_RANDOMNESS=1. */
  readonly testSeed?: number;
  /** The comparison the job's setting was chosen from: it goes into the internal folder, never the release. */
  readonly comparison?: Comparison;
} & (
  | { readonly jobPath: string }
  /** A job object from the app; its relative paths resolve against baseDir. */
  | { readonly job: unknown; readonly baseDir: string }
);

/** 'review': the release failed its disclosure review (nothing written). */
export type FailureKind = 'job' | 'input' | 'review' | 'cancelled' | 'internal';

export interface JobFailure {
  readonly kind: FailureKind;
  readonly message: string;
  readonly key?: string;
  readonly issues?: readonly string[];
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  /** An input problem without its location (file, sheet, line and column are given apart). */
  readonly reason?: string;
  readonly format?: InputErrorContext['format'];
  readonly sheet?: string;
  readonly sheets?: readonly string[];
  readonly advice?: InputAdvice;
}

export type WorkerMessage =
  | { readonly type: 'progress'; readonly event: ProgressEvent }
  | { readonly type: 'done'; readonly report: Report; readonly outDir?: string; readonly internalDir?: string }
  | { readonly type: 'failed'; readonly failure: JobFailure };

/** CLI exit status per failure kind, as the README lists them. */
export function exitCodeOf(kind: FailureKind): number {
  return kind === 'job' ? 2 : kind === 'input' ? 3 : kind === 'review' ? 4 : kind === 'cancelled' ? 130 : 1;
}
