import type { Grouping } from '../table/micro-groups.js';
import { reconstructFrequency } from '../randomized-response/perturbation/estimate.js';
import type { ReleaseRows } from '../table/release-rows.js';

/**
 * The adversary of Wang, Han, Fu (2012) Example 1: knowing a target's non-sensitive values,
 * it reconstructs the target's micro group from the release.
 */
export interface AttackEstimate {
  readonly publishedRows: number;
  /** Raw MLE F' of the value (may leave [0,1]); NaN when the group has no published row. */
  readonly estimate: number;
}

export function attackGroups(
  grouping: Grouping,
  release: ReleaseRows,
  sensitiveIndex: number,
  targets: readonly { group: number; value: number }[],
  p: number,
  m: number,
): AttackEstimate[] {
  // A table by group rather than a Map: it is read once per released row.
  const slot = new Int32Array(grouping.groupCount).fill(-1);
  targets.forEach((t, i) => (slot[t.group] = i));
  const size = new Array<number>(targets.length).fill(0);
  const hits = new Array<number>(targets.length).fill(0);
  const values = release.sensitive[sensitiveIndex]!;
  for (let r = 0; r < release.sourceRow.length; r++) {
    const i = slot[grouping.groupOfRow[release.sourceRow[r]!]!]!;
    if (i < 0) continue;
    size[i]!++;
    if (values[r] === targets[i]!.value) hits[i]!++;
  }
  return targets.map((_, i) => ({
    publishedRows: size[i]!,
    estimate: size[i]! === 0 ? Number.NaN : reconstructFrequency(hits[i]!, size[i]!, p, m),
  }));
}
