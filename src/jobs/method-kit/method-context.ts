import type { RandomSource } from '../../common/random/source.js';
import type { WorkerScript } from '../../io/worker-script.js';

export interface MethodContext {
  readonly random: RandomSource;
  /** "assess" computes risk only; "run" also releases, measures utility and attacks the release. */
  readonly mode: 'assess' | 'run';
  /** Folder the job's relative paths (hierarchies) resolve against. */
  readonly baseDir: string;
  readonly progress: (stage: string, fraction: number) => void;
  /** A script that can run a helper thread (the job worker's own), when the job runs in one. */
  readonly helperScript?: WorkerScript;
  /**
   * False when the caller measures utility itself (a comparison of candidates answers its own common
   * pool): a method may then skip its report's own query pool, which can cost more than the release.
   */
  readonly measureUtility?: boolean;
  /**
   * True when the caller writes the release before it needs the internal report's figures: a method
   * may then return figures still being measured (on a helper thread) as `outcome.pending`, and the
   * caller settles them once the release folder is written.
   */
  readonly settleLater?: boolean;
}
