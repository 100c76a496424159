import { maxOf } from '../../../common/extremes.js';
import { rationalFromNumber, toNumber } from '../../../common/exact/rational.js';
import { maxEpsilon, sizeThreshold, type PrivacyParameters } from '../../../common/randomized-response/bounds.js';
import type { AgreementGroup } from '../../../common/randomized-response/agreement-test.js';
import { groupRows } from '../../../common/table/micro-groups.js';
import { addAgreementCheck, verifyRandomized } from '../../../jobs/method-kit/verify-randomized.js';
import type { ReconstructionPrivacySpec } from '../definition.js';

/**
 * Reconstruction privacy samples each sensitive column into its own file: with the original, verify
 * recomputes every micro group's f_max and s_g, tests the groups published whole against the
 * retention's law, and checks that sampled groups show at most the rows Algorithm 1's scaling allows.
 */
export const verifyReconstructionPrivacy = verifyRandomized<ReconstructionPrivacySpec>({
  ownFile: true,
  retention: (spec) => toNumber(rationalFromNumber(spec.retention)),
  needsOriginal: ['(ε,δ) test of every micro group', 'Algorithm 1 footprint'],
  checkAgainstOriginal: (checks, ctx, spec, c) => {
    const sensitive = c.original.columns.find((col) => col.name === c.column)!;
    const grouping = groupRows(c.nonSensitive.map((n) => c.original.columns.find((col) => col.name === n)!), c.original.rowCount);
    const params: PrivacyParameters = { p: c.p, m: c.m, epsilon: spec.epsilon, delta: spec.delta, bound: spec.bound };
    const trueText = sensitive.dictionary.map(c.writtenForm);
    // Groups published whole: each record perturbed once, the law agreement-test.ts tests.
    const whole: AgreementGroup[] = [];
    let sampledGroups = 0;
    let sampledRows = 0;
    let violatingBefore = 0;
    let epsilonOutOfRange = 0;
    const inconsistent: string[] = [];
    const counts = new Map<number, number>();
    for (let g = 0; g < grouping.groupCount; g++) {
      counts.clear();
      for (let k = grouping.offsets[g]!; k < grouping.offsets[g + 1]!; k++) {
        const code = sensitive.codes[grouping.rowsByGroup[k]!]!;
        counts.set(code, (counts.get(code) ?? 0) + 1);
      }
      const size = grouping.offsets[g + 1]! - grouping.offsets[g]!;
      const fMax = maxOf(counts.values()) / size;
      if (spec.epsilon > maxEpsilon(fMax, params.p, c.m)) epsilonOutOfRange++;
      const threshold = sizeThreshold(fMax, params);
      if (size > threshold) violatingBefore++;
      const key = c.keys[grouping.rowsByGroup[grouping.offsets[g]!]!]!;
      const published = c.released.get(key) ?? 0;
      c.released.delete(key);
      if (size <= threshold) {
        if (threshold >= 1 && published !== size) inconsistent.push(`a group of ${size} (safe, s_g = ${threshold.toFixed(2)}) shows ${published} rows`);
        if (threshold >= 1) whole.push({ truth: new Map([...counts].map(([code, n]) => [trueText[code]!, n])), released: c.releasedValues.get(key) ?? new Map() });
        continue;
      }
      sampledGroups++;
      sampledRows += size;
      if (published === 0) continue;
      // A sampled group publishes t trials scaled by ⌊|g|/t⌋ or ⌈|g|/t⌉ copies each, with t at most about s_g.
      const limit = Math.min(size, Math.floor(sizeThreshold(1 / c.m, params)) + counts.size);
      let fits = false;
      for (let t = 1; t <= limit && !fits; t++) fits = Math.floor(size / t) * t <= published && published <= Math.ceil(size / t) * t;
      if (!fits) inconsistent.push(`a sampled group of ${size} shows ${published} rows, more than scaling at most ${limit} trials allows`);
    }
    // A sampled group's released rows are copies of fewer trials, scaled: not the one-draw-per-record law.
    const untested = sampledGroups > 0 ? `; ${sampledGroups} sampled group(s) of ${sampledRows} records not tested (their rows are scaled copies of sampled trials)` : '';
    addAgreementCheck(checks, c.column, whole, c.p, c.m, untested);
    checks.add(`${c.column}: ε in the valid range`, epsilonOutOfRange === 0, epsilonOutOfRange === 0 ? `ε = ${spec.epsilon} ≤ ε_max(g) for every micro group` : `ε exceeds ε_max for ${epsilonOutOfRange} group(s)`);
    // The count before protection is a fact of the input: only the internal report states it.
    const claimed = ctx.internal?.risk.bySensitive?.find((x) => x.column === c.column)?.violatingBefore;
    checks.add(
      `${c.column}: (ε,δ) test of every micro group`,
      claimed === undefined || violatingBefore === claimed,
      `${grouping.groupCount} micro groups recomputed; ${violatingBefore} exceed s_g and must be sampled (internal report: ${claimed ?? 'not found'})`,
    );
    checks.add(
      `${c.column}: Algorithm 1 footprint`,
      inconsistent.length === 0 && c.released.size === 0,
      inconsistent.length === 0 && c.released.size === 0
        ? 'safe groups are published whole, sampled groups within scaling bounds, no group that is not in the input'
        : [...inconsistent.slice(0, 3), ...(c.released.size ? [`${c.released.size} released tuple(s) match no input micro group`] : [])].join('; '),
    );
  },
});
