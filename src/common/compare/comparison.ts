/**
 * The comparison of candidate jobs (schema custos.comparison/1): computed on
 * the confidential input, so it is confidential as a whole and belongs to the
 * internal side only, never to a release folder.
 */
export const COMPARISON_SCHEMA = 'custos.comparison/1';

/**
 * At most this many candidates per comparison: the issue's 20 with room for a finer grid. The
 * wizard's cap, and the command line's unless `--max-candidates` raises it.
 */
export const MAX_CANDIDATES = 60;

/**
 * The most `custos compare --max-candidates` allows. Each candidate is one run of its method on the
 * input (the time grows with their number, and is shown as it goes) and keeps about 50 KB while the
 * comparison runs: measured, 1,000 candidates on 2,000 records took about 290 MB in all against 240 MB
 * for 60, where a 30,000-candidate grid passed 1 GB.
 */
export const MAX_CANDIDATES_LIMIT = 1000;

/**
 * The two count-query errors have different names because they measure different pools.
 * A run's report (randomized response, reconstruction privacy, β-privacy) asks 5,000 queries that each
 * fix a sensitive value (… ∧ SA = x); the comparison's common pool asks about every column alike, so
 * most of its queries leave the sensitive column out and are answered almost exactly from a
 * randomized release (on Adult about 5 in 6), which makes its mean several times lower.
 */
export const COMMON_POOL_ERROR = 'common-pool query error';
export const COMMON_POOL_ERROR_WORDS = 'mean relative error of the comparison\'s common pool of count queries (over every column)';
export const SENSITIVE_QUERY_ERROR_WORDS = 'mean relative error of sensitive-value count queries';
/** Said where a person meets both figures: the Compare step, the comparison's files, a run's report with its comparison. */
export const TWO_ERRORS =
  'The common-pool query error is not the run report\'s "mean relative error of sensitive-value count queries": that one asks 5,000 queries each fixing a value of the sensitive column, ' +
  'while the common pool asks about every column alike, so most of its queries leave the sensitive column out, are answered almost exactly, and its mean is several times lower for the same setting.';

/** Said wherever the comparison is shown: picking by these figures is itself a use of the data. */
export const DATA_DEPENDENT_CHOICE =
  'Choosing among these candidates by their risk and error is itself a use of the confidential data: every figure here was measured on it. ' +
  "No candidate's guarantee covers that choice. For the differentially private methods the (ε, δ) stated for the chosen release does not account " +
  'for the selection, which leaks through which candidate was picked. Prefer a private search where the method has one (safe k-anonymity\'s ' +
  'levels "search", whose ε_sel is part of the stated ε), or spend privacy budget on the selection itself (choose with a differentially private ' +
  'mechanism and add its ε). A choice made from the formal guarantees and parameters alone, before looking at these figures, uses no data.';

export interface CandidateResult {
  /** 1-based, in the order the candidates were given. */
  readonly id: number;
  readonly label: string;
  /** The job file it came from, and the grid values applied to it. */
  readonly job: string;
  readonly grid: readonly { readonly key: string; readonly value: string }[];
  readonly method: { readonly type: string; readonly title: string };
  /** The method's parameters in words ("retention 0.5, ε 0.5"). */
  readonly parameters: string;
  readonly guarantee: { readonly label: string; readonly statement: string; readonly holds: boolean };
  /** Share of the input's records the method's own attack model recovers (sensitive value or identity). */
  readonly risk: { readonly share: number; readonly measure: string };
  /**
   * Mean relative error of the common pool answered from the release (absent when no query could be asked); with the
   * job's `utility` key, the analysis-based utility too (src/common/utility/analysis.ts): a classifier's accuracy trained
   * on the release and on the input, and the mean total variation of the contingency tables (absent when not measured).
   */
  readonly utility: {
    readonly relativeError?: number;
    readonly estimator: string;
    readonly accuracy?: { readonly target: string; readonly release: number; readonly input: number };
    readonly tableDistance?: number;
  };
  readonly releasedRecords: number;
  readonly frontier: boolean;
}

/**
 * A candidate that could not be compared: refused when checked, before any work
 * (its job or parameters), or by its method while it ran (no transformation
 * meets k, say). The others are compared without it; it keeps its place (id).
 */
export interface SkippedCandidate {
  /** 1-based, in the order the candidates were given, as a result's id. */
  readonly id: number;
  readonly label: string;
  readonly job: string;
  readonly grid: readonly { readonly key: string; readonly value: string }[];
  /** The method the job names, when it names a known one. */
  readonly method?: { readonly type: string; readonly title: string };
  /** "check": refused before the comparison started; "run": its method refused it while running. */
  readonly stage: 'check' | 'run';
  /** Why, without the candidate's label or the key (which is given apart). */
  readonly reason: string;
  /** The job key the reason names ("method.columns"), when it names one. */
  readonly key?: string;
}

/** A skipped candidate's reason as the files and the terminal say it: the key first, as the command line's errors. */
export function cannotRunText(s: Pick<SkippedCandidate, 'reason' | 'key'>): string {
  return `cannot run: ${s.key ? `${s.key}: ` : ''}${s.reason}`;
}

export interface Comparison {
  readonly schema: typeof COMPARISON_SCHEMA;
  readonly confidential: string;
  readonly createdAt: string;
  readonly software: { readonly name: 'custos'; readonly version: string; readonly node: string; readonly platform: string };
  readonly testRandomness: boolean;
  readonly input: { readonly path: string; readonly sha256: string; readonly rows: number };
  readonly pool: {
    readonly description: string;
    readonly columns: readonly string[];
    readonly queries: number;
    readonly requested: number;
    readonly attempts: number;
    readonly minAnswer: number;
  };
  /** The candidates compared (each with its id), those that could not run left out. */
  readonly candidates: readonly CandidateResult[];
  /** The candidates that could not run, with their reason, in id order. */
  readonly skipped: readonly SkippedCandidate[];
  readonly notes: readonly string[];
  readonly seconds: number;
}
