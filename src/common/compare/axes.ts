/**
 * What several mechanisms' compare parts share (each mechanism's compare.ts names its own):
 * the retention axis of the two randomized-response mechanisms, a k axis, and the words for how
 * the common pool reads their releases.
 */
import type { CompareAxis, MethodObject } from '../mechanism.js';
import type { CandidateResult } from './comparison.js';

const COMMON_POOL_ERROR_CAPITAL = 'Common-pool query error';

/** The randomized-response mechanisms' retention, ticked when the step opens. */
export const RETENTION_AXIS: CompareAxis = {
  words: 'retention', key: 'retention', suggested: '0.3, 0.5, 0.7', min: 0, max: 1, integer: false, includedByDefault: true,
  apply: (m, v) => ({ ...m, retention: v }),
};

/** A least class or group size k at `key` of the method object, set by `apply`. */
export function kAxis(key: string, suggested: string, apply: (method: MethodObject, k: number) => MethodObject): CompareAxis {
  return { words: 'k', key, suggested, min: 2, max: 1e6, integer: true, includedByDefault: false, apply };
}

export const RANDOMIZED_ESTIMATOR = 'sensitive column through the randomized-response estimator; other columns as released';

export const GENERALIZED_ESTIMATOR = 'generalized values spread uniformly over the input values they cover';

/**
 * What the Compare step's chart puts on its utility axis (lower is better on each): the common pool's
 * query error, or, when the candidates' jobs carry a `utility` key (src/common/utility/analysis.ts),
 * the accuracy a classifier trained on the release loses against one trained on the input, or the
 * mean total variation distance of the contingency tables before and after.
 */
export interface UtilityAxis {
  readonly key: 'query-error' | 'accuracy-lost' | 'table-distance';
  /** The axis's title, as the chart and the table head say it. */
  readonly words: string;
  /** The figure of one candidate, undefined when it was not measured. */
  readonly value: (utility: CandidateUtility) => number | undefined;
  /** The figure as the table and the hover text write it. */
  readonly text: (value: number) => string;
}

type CandidateUtility = CandidateResult['utility'];

export const QUERY_ERROR_AXIS: UtilityAxis = { key: 'query-error', words: COMMON_POOL_ERROR_CAPITAL, value: (u) => u.relativeError, text: (v) => v.toFixed(4) };

export const UTILITY_AXES: readonly UtilityAxis[] = [
  QUERY_ERROR_AXIS,
  {
    key: 'accuracy-lost',
    words: 'Classifier accuracy lost',
    // Below 0 when the release's classifier does better on the input's records: drawn at 0, written as it is.
    value: (u) => (u.accuracy ? Math.max(0, u.accuracy.input - u.accuracy.release) : undefined),
    text: (v) => `${(100 * v).toFixed(1)} points`,
  },
  { key: 'table-distance', words: 'Contingency tables\' total variation', value: (u) => u.tableDistance, text: (v) => v.toFixed(4) },
];

export function utilityAxisOf(key: UtilityAxis['key']): UtilityAxis {
  return UTILITY_AXES.find((a) => a.key === key) ?? QUERY_ERROR_AXIS;
}
