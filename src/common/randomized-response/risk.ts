import type { Grouping } from '../table/micro-groups.js';
import { groupSize } from '../table/micro-groups.js';
import { maxEpsilon, sizeThreshold, type PrivacyParameters } from './bounds.js';

export interface GroupRisk {
  readonly group: number;
  readonly size: number;
  readonly maxCount: number;
  readonly fMax: number;
  readonly sizeThreshold: number;
  readonly passes: boolean;
}

export interface RiskSummary {
  readonly microGroups: number;
  /** Groups failing the (ε,δ) test under plain perturbation at the same retention. */
  readonly violating: number;
  readonly violatingRows: number;
  /** min over groups of ε_max(g); ε must not exceed it. */
  readonly largestValidEpsilon: number;
  /** Groups for which ε > ε_max(g). */
  readonly epsilonOutOfRange: number;
  /** Groups that cannot be protected at all (s_g < 1). */
  readonly unprotectable: number;
}

export function assessGroups(grouping: Grouping, maxCounts: Uint32Array, params: PrivacyParameters): RiskSummary {
  let violating = 0;
  let violatingRows = 0;
  let largestValidEpsilon = Infinity;
  let epsilonOutOfRange = 0;
  let unprotectable = 0;
  for (let g = 0; g < grouping.groupCount; g++) {
    const n = groupSize(grouping, g);
    const fMax = maxCounts[g]! / n;
    const eMax = maxEpsilon(fMax, params.p, params.m);
    if (eMax < largestValidEpsilon) largestValidEpsilon = eMax;
    if (params.epsilon > eMax) epsilonOutOfRange++;
    const s = sizeThreshold(fMax, params);
    if (s < 1) unprotectable++;
    if (n > s) {
      violating++;
      violatingRows += n;
    }
  }
  return { microGroups: grouping.groupCount, violating, violatingRows, largestValidEpsilon, epsilonOutOfRange, unprotectable };
}

/**
 * The groups an adversary would attack first, among groups of at least minSize
 * rows: the furthest above their safe size s_g (so every violating group comes
 * before any passing one), then the most homogeneous.
 */
export function riskiestGroups(
  grouping: Grouping,
  maxCounts: Uint32Array,
  params: PrivacyParameters,
  minSize: number,
  limit: number,
): GroupRisk[] {
  const candidates: GroupRisk[] = [];
  for (let g = 0; g < grouping.groupCount; g++) {
    const size = groupSize(grouping, g);
    if (size < minSize) continue;
    const fMax = maxCounts[g]! / size;
    const s = sizeThreshold(fMax, params);
    candidates.push({ group: g, size, maxCount: maxCounts[g]!, fMax, sizeThreshold: s, passes: size <= s });
  }
  candidates.sort((a, b) => b.size / b.sizeThreshold - a.size / a.sizeThreshold || b.fMax - a.fMax);
  return candidates.slice(0, limit);
}
