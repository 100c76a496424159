import { GrowableUint32 } from '../table/growable.js';
import type { Grouping } from '../table/micro-groups.js';
import { UniformPerturber } from './perturbation/randomize.js';
import type { RandomSource } from '../random/source.js';
import type { Rational } from '../exact/rational.js';
import { shuffleRelease, type ReleaseRows } from '../table/release-rows.js';
import { releaseGroup, type Algorithm1Options } from './algorithm1.js';
import { checkPrivacyParameters, maxEpsilon, sizeThreshold, type PrivacyParameters } from './bounds.js';
import { groupCountsVisitor, groupValueCounts, type GroupValueCounts } from './group-counts.js';

/** Per micro group, its independent trials and their largest value count (what the guarantee is about). */
export interface GroupTrials {
  readonly trials: Uint32Array;
  readonly trialMaxCount: Uint32Array;
}

export interface ReconstructionStats {
  readonly sampledGroups: number;
  /** Groups with no published row: s_g < 1, or every sampling coin failed. */
  readonly suppressedGroups: number;
  readonly suppressedRows: number;
  readonly trimmedRows: number;
  readonly trials: number;
  /**
   * Groups whose independent trials fail the exact (ε,δ) test: the groups that
   * pass only "modulo coin flips" in the paper-faithful mode; 0 under strict.
   */
  readonly violatingAfter: number;
  /** The records of those groups (what a comparison of methods counts as exposed). */
  readonly violatingRowsAfter: number;
}

export interface ReconstructionRelease {
  readonly rows: ReleaseRows;
  readonly stats: ReconstructionStats;
  /** Per micro group: its independent trials (what the guarantee is about). */
  readonly groupTrials: GroupTrials;
  /** Per micro group: its released rows (its trials' copies), what counting the rows by group gives. */
  readonly releasedByGroup: Uint32Array;
}

export interface ReconstructionInput {
  readonly grouping: Grouping;
  readonly values: Uint32Array;
  readonly retention: Rational;
  readonly params: PrivacyParameters;
  readonly options: Algorithm1Options;
  /** The groups' value counts, when the caller has them (the analysis does): else counted here. */
  readonly counts?: GroupValueCounts;
  /**
   * Sees the released rows before they are shuffled, group after group, which is how a reader that
   * counts them by group reads them fastest (the utility figure's pool: counts do not depend on the
   * rows' order). The arrays are shuffled in place next: a reader that keeps them reads them shuffled.
   */
  readonly beforeShuffle?: (rows: ReleaseRows) => void;
  readonly onProgress?: (fraction: number) => void;
}

/** Algorithm 1 over every micro group of one sensitive attribute; released rows are shuffled. */
export function reconstructionRelease(source: RandomSource, input: ReconstructionInput): ReconstructionRelease {
  const { grouping, values, params, options } = input;
  checkPrivacyParameters(params);
  const counted = input.counts ?? groupValueCounts(grouping, values, params.m);
  const countsOf = groupCountsVisitor(counted);
  const threshold = memoizedThreshold(params);
  const perturber = new UniformPerturber(input.retention, params.m);
  const sourceRow = new GrowableUint32(values.length + 1024);
  const sensitive = new GrowableUint32(values.length + 1024);
  const groupTrials = { trials: new Uint32Array(grouping.groupCount), trialMaxCount: new Uint32Array(grouping.groupCount) };
  const releasedByGroup = new Uint32Array(grouping.groupCount);
  let sampledGroups = 0;
  let suppressedGroups = 0;
  let suppressedRows = 0;
  let trimmedRows = 0;
  let trials = 0;
  let violatingAfter = 0;
  let violatingRowsAfter = 0;
  const progressEvery = Math.max(1, Math.floor(grouping.groupCount / 50));
  const { offsets, rowsByGroup } = grouping;
  for (let g = 0; g < grouping.groupCount; g++) {
    const size = offsets[g + 1]! - offsets[g]!;
    const maxCount = counted.maxCount[g]!;
    const firstRow = rowsByGroup[offsets[g]!]!;
    const releasedBefore = sourceRow.length;
    // ε beyond a group's ε_max certifies nothing for it: refuse here too, not only in the job layer
    // (throwing mid-way is safe: the release is only returned whole).
    const eMax = maxEpsilon(maxCount / size, params.p, params.m);
    if (params.epsilon > eMax) throw new RangeError(`ε = ${params.epsilon} is outside the valid range of a micro group (ε_max = ${eMax}): no (ε,δ) test can hold for it`);
    const s = threshold(maxCount, size);
    if (s >= 1 && size <= s) {
      // Not sampled (most groups of a census): the trials are the group's rows, perturbed value by
      // value in first-seen order, one copy each, exactly as releaseGroup does, without its arrays.
      for (let e = counted.start[g]!; e < counted.start[g + 1]!; e++) {
        const v = counted.values[e]!;
        for (let c = counted.counts[e]!; c > 0; c--) sensitive.push(perturber.perturb(source, v));
      }
      sourceRow.pushRepeated(firstRow, size);
      groupTrials.trials[g] = size;
      groupTrials.trialMaxCount[g] = maxCount;
      trials += size;
      // size ≤ s_g(maxCount / size): the trials pass the exact test.
    } else {
      const release = releaseGroup(source, countsOf(g), params, perturber, options);
      groupTrials.trials[g] = release.trials;
      groupTrials.trialMaxCount[g] = release.trialMaxCount;
      if (release.sampled) sampledGroups++;
      if (release.trials === 0) {
        suppressedGroups++;
        suppressedRows += size;
      }
      trimmedRows += release.trimmed;
      trials += release.trials;
      if (release.trials > 0) {
        const exact = release.trials <= sizeThreshold(release.trialMaxCount / release.trials, params);
        if (!exact) {
          violatingAfter++;
          violatingRowsAfter += size;
        }
      }
      if (release.copies === null) {
        sourceRow.pushRepeated(firstRow, release.trials);
        sensitive.pushAll(release.trialValues);
      } else {
        for (let t = 0; t < release.trials; t++) {
          const copies = release.copies[t]!;
          sourceRow.pushRepeated(firstRow, copies);
          sensitive.pushRepeated(release.trialValues[t]!, copies);
        }
      }
    }
    releasedByGroup[g] = sourceRow.length - releasedBefore;
    if (input.onProgress && g % progressEvery === 0) input.onProgress(g / grouping.groupCount);
  }
  const rows = { sourceRow: sourceRow.toArray(), sensitive: [sensitive.toArray()] };
  input.beforeShuffle?.(rows);
  shuffleRelease(source, rows);
  return {
    rows,
    groupTrials,
    releasedByGroup,
    stats: { sampledGroups, suppressedGroups, suppressedRows, trimmedRows, trials, violatingAfter, violatingRowsAfter },
  };
}

/** Groups up to this size have their s_g remembered by (largest count, size). */
const MEMO_SIZE = 32;

/**
 * s_g(maxCount / size) (sizeThreshold), remembered for small groups: a census's hundreds of thousands
 * of groups of a few rows share a few hundred (largest count, size) pairs. Computed by sizeThreshold
 * itself from the same quotient, so the same double.
 */
function memoizedThreshold(params: PrivacyParameters): (maxCount: number, size: number) => number {
  const memo = new Float64Array((MEMO_SIZE + 1) * (MEMO_SIZE + 1)).fill(Number.NaN);
  return (maxCount, size) => {
    if (size > MEMO_SIZE) return sizeThreshold(maxCount / size, params);
    const at = maxCount * (MEMO_SIZE + 1) + size;
    let s = memo[at]!;
    if (s !== s) memo[at] = s = sizeThreshold(maxCount / size, params);
    return s;
  };
}
