import { GrowableUint32 } from '../table/growable.js';
import type { Grouping } from '../table/micro-groups.js';
import { UniformPerturber } from './perturbation/randomize.js';
import type { RandomSource } from '../random/source.js';
import type { Rational } from '../exact/rational.js';
import { shuffleRelease, type ReleaseRows } from '../table/release-rows.js';
import { releaseGroup, type Algorithm1Options } from './algorithm1.js';
import { checkPrivacyParameters, maxEpsilon, sizeThreshold, type PrivacyParameters } from './bounds.js';
import { forEachGroupCounts } from './group-counts.js';
import { maxOf, sumOf } from '../extremes.js';

export interface GroupTrials {
  readonly trials: number;
  readonly trialMaxCount: number;
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
  readonly groupTrials: GroupTrials[];
}

export interface ReconstructionInput {
  readonly grouping: Grouping;
  readonly values: Uint32Array;
  readonly retention: Rational;
  readonly params: PrivacyParameters;
  readonly options: Algorithm1Options;
  readonly onProgress?: (fraction: number) => void;
}

/** Algorithm 1 over every micro group of one sensitive attribute; released rows are shuffled. */
export function reconstructionRelease(source: RandomSource, input: ReconstructionInput): ReconstructionRelease {
  const { grouping, values, params, options } = input;
  checkPrivacyParameters(params);
  const perturber = new UniformPerturber(input.retention, params.m);
  const sourceRow = new GrowableUint32(values.length + 1024);
  const sensitive = new GrowableUint32(values.length + 1024);
  const groupTrials: GroupTrials[] = new Array(grouping.groupCount);
  let sampledGroups = 0;
  let suppressedGroups = 0;
  let suppressedRows = 0;
  let trimmedRows = 0;
  let trials = 0;
  let violatingAfter = 0;
  let violatingRowsAfter = 0;
  const progressEvery = Math.max(1, Math.floor(grouping.groupCount / 50));
  forEachGroupCounts(grouping, values, params.m, (g, counts, firstRow) => {
    const size = sumOf(counts.counts);
    // ε beyond a group's ε_max certifies nothing for it: refuse here too, not only in the job layer
    // (throwing mid-way is safe: the release is only returned whole).
    const eMax = maxEpsilon(maxOf(counts.counts) / size, params.p, params.m);
    if (params.epsilon > eMax) throw new RangeError(`ε = ${params.epsilon} is outside the valid range of a micro group (ε_max = ${eMax}): no (ε,δ) test can hold for it`);
    const release = releaseGroup(source, counts, params, perturber, options);
    groupTrials[g] = { trials: release.trials, trialMaxCount: release.trialMaxCount };
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
    if (input.onProgress && g % progressEvery === 0) input.onProgress(g / grouping.groupCount);
  });
  const rows = { sourceRow: sourceRow.toArray(), sensitive: [sensitive.toArray()] };
  shuffleRelease(source, rows);
  return {
    rows,
    groupTrials,
    stats: { sampledGroups, suppressedGroups, suppressedRows, trimmedRows, trials, violatingAfter, violatingRowsAfter },
  };
}
