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
  const size = new Array<number>(targets.length).fill(0);
  const hits = new Array<number>(targets.length).fill(0);
  const values = release.sensitive[sensitiveIndex]!;
  // Each input row of a target group marked with its target (1 + its index): one read per released
  // row in a byte a row, not its group's id and then the group's slot (two reads at random in
  // arrays four and more times larger). The job's schema allows at most 100 targets.
  if (targets.length > 254) throw new RangeError(`at most 254 target groups are attacked at once, not ${targets.length}`);
  const mark = new Uint8Array(grouping.groupOfRow.length);
  targets.forEach((t, i) => {
    for (let k = grouping.offsets[t.group]!; k < grouping.offsets[t.group + 1]!; k++) mark[grouping.rowsByGroup[k]!] = i + 1;
  });
  for (let r = 0; r < release.sourceRow.length; r++) {
    const i = mark[release.sourceRow[r]!]! - 1;
    if (i < 0) continue;
    size[i]!++;
    if (values[r] === targets[i]!.value) hits[i]!++;
  }
  return targets.map((_, i) => ({
    publishedRows: size[i]!,
    estimate: size[i]! === 0 ? Number.NaN : reconstructFrequency(hits[i]!, size[i]!, p, m),
  }));
}
