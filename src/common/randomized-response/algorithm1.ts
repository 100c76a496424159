import { realBernoulli } from '../random/draws.js';
import type { RandomSource } from '../random/source.js';
import { UniformPerturber } from './perturbation/randomize.js';
import { sizeThreshold, type PrivacyParameters } from './bounds.js';
import { maxOf, sumOf } from '../extremes.js';

/**
 * Per-value counts of one micro group: counts[i] rows hold domain value values[i].
 * All those rows are identical on every released column, so the mechanism works
 * on counts and the caller maps trials back to rows.
 */
export interface GroupCounts {
  readonly values: readonly number[];
  readonly counts: readonly number[];
}

export interface GroupRelease {
  /** Perturbed domain value of each independent trial. */
  readonly trialValues: Uint32Array;
  /** Copies emitted per trial after scaling; null when the group was not sampled (one copy each). */
  readonly copies: Uint32Array | null;
  readonly sampled: boolean;
  readonly sizeThreshold: number;
  /** Independent trials and their largest value count: what the guarantee is about. */
  readonly trials: number;
  readonly trialMaxCount: number;
  /** True when the group could not be protected (s_g < 1) and was suppressed. */
  readonly suppressed: boolean;
  /** Rows removed by the strict option after sampling. */
  readonly trimmed: number;
}

export interface Algorithm1Options {
  /** Trim the sample until it passes the exact test. */
  readonly strict: boolean;
}

/** Sampling(g, s) of Algorithm 1 (Wang, Han, Fu): ⌊|g_x|·s/|g|⌋ rows plus one with the fractional probability. */
export function sampleCounts(source: RandomSource, counts: readonly number[], threshold: number): number[] {
  const n = counts.reduce((a, b) => a + b, 0);
  return counts.map((c) => {
    const target = (c * threshold) / n;
    const whole = Math.floor(target);
    return whole + (realBernoulli(source, target - whole) ? 1 : 0);
  });
}

/** Scaling(g1*, |g|): ⌊b′⌋ copies per trial plus one with probability b′ − ⌊b′⌋, one coin per trial. */
export function scaleCopies(source: RandomSource, trials: number, groupSize: number): Uint32Array {
  const copies = new Uint32Array(trials);
  if (trials === 0) return copies;
  const ratio = groupSize / trials;
  const whole = Math.floor(ratio);
  const fraction = ratio - whole;
  for (let t = 0; t < trials; t++) copies[t] = whole + (realBernoulli(source, fraction) ? 1 : 0);
  return copies;
}

/** Removes rows of the most frequent value until |g1| ≤ s_g(f_max(g1)). */
export function trimToPass(counts: number[], params: PrivacyParameters): number {
  let trimmed = 0;
  for (;;) {
    const n = counts.reduce((a, b) => a + b, 0);
    if (n === 0) return trimmed;
    let top = 0;
    for (let i = 1; i < counts.length; i++) if (counts[i]! > counts[top]!) top = i;
    if (n <= sizeThreshold(counts[top]! / n, params)) return trimmed;
    counts[top]!--;
    trimmed++;
  }
}

/** Algorithm 1 (Sampling, Perturbing, Scaling) for one micro group. */
export function releaseGroup(
  source: RandomSource,
  group: GroupCounts,
  params: PrivacyParameters,
  perturber: UniformPerturber,
  options: Algorithm1Options,
): GroupRelease {
  const n = sumOf(group.counts);
  const maxCount = maxOf(group.counts);
  const threshold = sizeThreshold(maxCount / n, params);
  if (threshold < 1) {
    return { trialValues: new Uint32Array(0), copies: null, sampled: true, sizeThreshold: threshold, trials: 0, trialMaxCount: 0, suppressed: true, trimmed: 0 };
  }
  const sampled = n > threshold;
  // Unsampled, the trials are the group's rows themselves.
  let trialCounts: readonly number[] = group.counts;
  let trimmed = 0;
  if (sampled) {
    const sample = sampleCounts(source, group.counts, threshold);
    if (options.strict) trimmed = trimToPass(sample, params);
    trialCounts = sample;
  }
  const trials = sumOf(trialCounts);
  // Trials in value order, each value's rows perturbed one after another.
  const trialValues = new Uint32Array(trials);
  let t = 0;
  for (let i = 0; i < trialCounts.length; i++) {
    const origin = group.values[i]!;
    for (let c = trialCounts[i]!; c > 0; c--) trialValues[t++] = perturber.perturb(source, origin);
  }
  const copies = sampled ? scaleCopies(source, trials, n) : null;
  return { trialValues, copies, sampled, sizeThreshold: threshold, trials, trialMaxCount: trials === 0 ? 0 : sampled ? maxOf(trialCounts) : maxCount, suppressed: false, trimmed };
}
