import { rational, type Rational } from '../../common/exact/rational.js';
import { keyColumn, tupleIds } from '../../common/table/tuple-ids.js';

/**
 * The utility score the differentially private lattice search maximizes.
 *
 * u(node) = Σ over the sample's classes C of g(|C|)·(1 − λ·L_C), where L_C is
 * the class's mean generalization loss over the columns, λ ∈ [0, 1] weighs
 * detail against released records (λ = 1 is SafePub's objective: a suppressed
 * record costs as much as one generalized to "*" everywhere), and
 *   g(s) = s                              for s ≥ k (the class is released),
 *   g(s) = max(0, c·s − (c − 1)·k)        for s < k (a ramp from (1 − 1/c)·k up to k).
 * Adding or removing one record changes one class by one, so Δu = c: the step
 * score (kept records only) would have Δu = k, and with ε_sel = 0.1 its choice
 * is close to uniform over the better half of the lattice. The ramp credits
 * classes just short of k a little; in exchange the mechanism is k/c times
 * sharper. Losses are rounded to multiples of 2^−bits so every score is an
 * exact integer multiple of 1/unit, which the exact exponential mechanism needs.
 */
export interface ScoreRule {
  readonly k: number;
  /** c: the ramp's slope and the score's sensitivity. */
  readonly slope: number;
  /** Scores are integers; u = score / unit, unit = m · 2^bits. */
  readonly unit: number;
  readonly lossBits: number;
  readonly columns: number;
  /** λ: a kept record scores 1 − λ·loss, a suppressed one 0. */
  readonly lossWeight: number;
}

export const DEFAULT_SLOPE = 4;
/**
 * λ = 0.6: a record kept but generalized to "*" everywhere still scores 0.4. On Adult
 * (bench) this releases more records than SafePub at lower loss, in median and mean.
 */
export const DEFAULT_LOSS_WEIGHT = 0.6;
const LOSS_BITS = 20;

export function scoreRule(k: number, columns: number, sampleSize: number, options: { readonly slope?: number; readonly lossWeight?: number } = {}): ScoreRule {
  const { slope = DEFAULT_SLOPE, lossWeight = DEFAULT_LOSS_WEIGHT } = options;
  if (!Number.isInteger(slope) || slope < 1) throw new RangeError('the ramp slope must be a positive integer');
  if (!(lossWeight >= 0 && lossWeight <= 1)) throw new RangeError('the loss weight λ must lie in [0, 1]');
  // A fixed rounding: a grain that followed the sample's size would make neighbouring samples
  // score on different scales. Every score stays below sampleSize · m · 2^20 ≤ 2^53, so sums are exact.
  const lossBits = LOSS_BITS;
  if (Math.max(1, sampleSize) * Math.max(1, columns) * 2 ** lossBits > 2 ** 53) throw new RangeError(`a sample of ${sampleSize} records over ${columns} columns is too large for exact integer scores`);
  return { k, slope, unit: Math.max(1, columns) * 2 ** lossBits, lossBits, columns, lossWeight };
}

/** Δu in score units (an integer): c·unit. */
export function scoreSensitivity(rule: ScoreRule): Rational {
  return rational(BigInt(rule.slope) * BigInt(rule.unit));
}

/** g(s): the class-size factor of the score. */
export function classCredit(rule: ScoreRule, size: number): number {
  if (size >= rule.k) return size;
  const ramp = rule.slope * size - (rule.slope - 1) * rule.k;
  return ramp > 0 ? ramp : 0;
}

/** λ times a value's loss, rounded to an integer multiple of 2^−bits (a rounding of metadata, not data). */
export function quantizedLoss(rule: ScoreRule, loss: Float64Array): Int32Array {
  const scale = 2 ** rule.lossBits;
  return Int32Array.from(loss, (l) => Math.round(rule.lossWeight * Math.min(1, Math.max(0, l)) * scale));
}

export interface ScoredColumn {
  readonly codes: Uint32Array;
  readonly dictionary: readonly string[];
  readonly loss: Float64Array;
}

/** The score of one node computed from the records directly: the oracle the roll-up is tested against. */
export function directScore(rule: ScoreRule, generalized: readonly ScoredColumn[], sample: Uint32Array): number {
  const { ids, count } = tupleIds(generalized.map(keyColumn), sample, sample.length);
  const sizes = new Uint32Array(count);
  const weight = new Float64Array(count);
  const quantized = generalized.map((g) => quantizedLoss(rule, g.loss));
  for (let i = 0; i < sample.length; i++) {
    const c = ids[i]!;
    sizes[c]!++;
    let lost = 0;
    for (let j = 0; j < generalized.length; j++) lost += quantized[j]![generalized[j]!.codes[sample[i]!]!]!;
    weight[c] = rule.unit - lost;
  }
  let score = 0;
  for (let c = 0; c < count; c++) score += classCredit(rule, sizes[c]!) * weight[c]!;
  return score;
}
