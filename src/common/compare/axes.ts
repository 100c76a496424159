/**
 * What several mechanisms' compare parts share (each mechanism's compare.ts names its own):
 * the retention axis of the two randomized-response mechanisms, a k axis, and the words for how
 * the common pool reads their releases.
 */
import type { CompareAxis, MethodObject } from '../mechanism.js';

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
