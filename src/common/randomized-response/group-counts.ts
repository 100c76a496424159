import type { Grouping } from '../table/micro-groups.js';
import type { GroupCounts } from './algorithm1.js';
import { maxOf } from '../extremes.js';

/**
 * Visits each micro group with its per-value counts (values in first-seen order).
 * A census has hundreds of thousands of groups of a few rows, so nothing is
 * allocated per group: the arrays handed to `visit` are reused by every group
 * with as many distinct values, and hold a group's counts only during its visit.
 */
export function forEachGroupCounts(
  grouping: Grouping,
  values: Uint32Array,
  domainSize: number,
  visit: (group: number, counts: GroupCounts, firstRow: number) => void,
): void {
  const scratch = new Uint32Array(domainSize);
  const seen = new Uint32Array(domainSize);
  const bySize: { values: number[]; counts: number[] }[] = [];
  const { offsets, rowsByGroup } = grouping;
  for (let g = 0; g < grouping.groupCount; g++) {
    let distinct = 0;
    for (let k = offsets[g]!; k < offsets[g + 1]!; k++) {
      const v = values[rowsByGroup[k]!]!;
      if (scratch[v]!++ === 0) seen[distinct++] = v;
    }
    const group = (bySize[distinct] ??= { values: new Array<number>(distinct).fill(0), counts: new Array<number>(distinct).fill(0) });
    for (let i = 0; i < distinct; i++) {
      const v = seen[i]!;
      group.values[i] = v;
      group.counts[i] = scratch[v]!;
      scratch[v] = 0;
    }
    visit(g, group, rowsByGroup[offsets[g]!]!);
  }
}

/** Largest value count per group, for the risk test. */
export function groupMaxCounts(grouping: Grouping, values: Uint32Array, domainSize: number): Uint32Array {
  const max = new Uint32Array(grouping.groupCount);
  forEachGroupCounts(grouping, values, domainSize, (g, c) => {
    max[g] = maxOf(c.counts);
  });
  return max;
}
