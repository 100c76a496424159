import type { Grouping } from '../table/micro-groups.js';
import type { GroupCounts } from './algorithm1.js';
import { GrowableUint32 } from '../table/growable.js';

/**
 * Each micro group's distinct values and how many rows hold each, group after group: group g's
 * entries are [start[g], start[g+1]), its values in first-seen order (rows ascending), and maxCount[g]
 * its largest count. The rows are read once, at random through rowsByGroup, for both readers: the
 * risk test takes each group's largest count and the release each group's counts from here, in order.
 */
export interface GroupValueCounts {
  readonly start: Uint32Array;
  readonly values: Uint32Array;
  readonly counts: Uint32Array;
  readonly maxCount: Uint32Array;
}

export function groupValueCounts(grouping: Grouping, values: Uint32Array, domainSize: number): GroupValueCounts {
  const scratch = new Uint32Array(domainSize);
  const seen = new Uint32Array(domainSize);
  const { offsets, rowsByGroup, groupCount } = grouping;
  const start = new Uint32Array(groupCount + 1);
  const maxCount = new Uint32Array(groupCount);
  // At least one entry per group that has rows, at most one per row: most census groups hold one value.
  const capacity = Math.min(rowsByGroup.length, groupCount + (groupCount >> 2)) + 16;
  const entryValues = new GrowableUint32(capacity);
  const entryCounts = new GrowableUint32(capacity);
  for (let g = 0; g < groupCount; g++) {
    let distinct = 0;
    for (let k = offsets[g]!; k < offsets[g + 1]!; k++) {
      const v = values[rowsByGroup[k]!]!;
      if (scratch[v]!++ === 0) seen[distinct++] = v;
    }
    let max = 0;
    for (let i = 0; i < distinct; i++) {
      const v = seen[i]!;
      const c = scratch[v]!;
      entryValues.push(v);
      entryCounts.push(c);
      if (c > max) max = c;
      scratch[v] = 0;
    }
    maxCount[g] = max;
    start[g + 1] = entryValues.length;
  }
  return { start, values: entryValues.toArray(), counts: entryCounts.toArray(), maxCount };
}

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
  counted: GroupValueCounts = groupValueCounts(grouping, values, domainSize),
): void {
  const visitor = groupCountsVisitor(counted);
  for (let g = 0; g < grouping.groupCount; g++) visit(g, visitor(g), grouping.rowsByGroup[grouping.offsets[g]!]!);
}

/** Group g's counts as GroupCounts, in arrays reused by every group with as many distinct values (valid until the next call). */
export function groupCountsVisitor(counted: GroupValueCounts): (g: number) => GroupCounts {
  const bySize: { values: number[]; counts: number[] }[] = [];
  return (g) => {
    const from = counted.start[g]!;
    const distinct = counted.start[g + 1]! - from;
    const group = (bySize[distinct] ??= { values: new Array<number>(distinct).fill(0), counts: new Array<number>(distinct).fill(0) });
    for (let i = 0; i < distinct; i++) {
      group.values[i] = counted.values[from + i]!;
      group.counts[i] = counted.counts[from + i]!;
    }
    return group;
  };
}

/** Largest value count per group, for the risk test. */
export function groupMaxCounts(grouping: Grouping, values: Uint32Array, domainSize: number): Uint32Array {
  return groupValueCounts(grouping, values, domainSize).maxCount;
}
