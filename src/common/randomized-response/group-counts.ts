import type { Grouping } from '../table/micro-groups.js';
import type { GroupCounts } from './algorithm1.js';
import { maxOf } from '../extremes.js';

/** Visits each micro group with its per-value counts (values in first-seen order). */
export function forEachGroupCounts(
  grouping: Grouping,
  values: Uint32Array,
  domainSize: number,
  visit: (group: number, counts: GroupCounts, firstRow: number) => void,
): void {
  const scratch = new Uint32Array(domainSize);
  const { offsets, rowsByGroup } = grouping;
  for (let g = 0; g < grouping.groupCount; g++) {
    const present: number[] = [];
    for (let k = offsets[g]!; k < offsets[g + 1]!; k++) {
      const v = values[rowsByGroup[k]!]!;
      if (scratch[v]++ === 0) present.push(v);
    }
    const counts = present.map((v) => scratch[v]!);
    for (const v of present) scratch[v] = 0;
    visit(g, { values: present, counts }, rowsByGroup[offsets[g]!]!);
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
