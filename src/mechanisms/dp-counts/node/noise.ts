import { rational, rationalFromNumber } from '../../../common/exact/rational.js';
import { discreteLaplace, GRID_BITS, snap } from '../../../common/random/exact-samplers.js';
import type { RandomSource } from '../../../common/random/source.js';
import { effectiveEpsilon, smallestEigenvalueBound } from '../accounting.js';
import type { DpCountsSpec } from '../definition.js';
import { glmNoise, StreamingNoise, type CorrelationModel } from '../glm.js';
import type { AnswerPlan } from './answers.js';
import { possibleRecords } from './sensitivity.js';

/** The released answers and the correlation model their noise was drawn under. */
export interface NoisyAnswers {
  readonly released: Float64Array;
  readonly model: CorrelationModel;
  /** Generalized Laplace (correlated) noise, not exact discrete Laplace. */
  readonly correlated: boolean;
  readonly rho: number;
}

/**
 * Noise for every distinct answer: exact discrete Laplace of scale Δ/ε, or
 * generalized Laplace correlated along each series (AR(1) streams), within
 * groups of a column (blocks) or across the answers in order (one AR(1) chain).
 */
export function drawNoise(random: RandomSource, spec: DpCountsSpec, answers: AnswerPlan, truth: Float64Array, sensitivity: number, b: number): NoisyAnswers {
  const { unique } = answers;
  const correlated = spec.noise === 'generalized-laplace';
  const rho = spec.correlation?.rho ?? 0;
  const noise = new Float64Array(unique.length);
  let model: CorrelationModel = { kind: 'independent' };
  if (!correlated) {
    const epsilon = rationalFromNumber(spec.epsilon);
    const scale = rational(BigInt(sensitivity) * epsilon.den, epsilon.num);
    for (let i = 0; i < unique.length; i++) noise[i] = Number(discreteLaplace(random, scale));
  } else if (spec.series) {
    // One stream per series (and part), AR(1) along it.
    const streams = new Map<string, { readonly noise: StreamingNoise; readonly id: number }>();
    const ar1 = spec.correlation && 'model' in spec.correlation ? spec.correlation.rho : 0;
    const streamOf = unique.map((a, i) => {
      const key = `${a.part}|${a.series}`;
      let stream = streams.get(key);
      if (!stream) streams.set(key, (stream = { noise: new StreamingNoise(random, b, ar1, spec.series!.iteration), id: streams.size }));
      noise[i] = stream.noise.next();
      return stream.id;
    });
    // Streams are independent of one another: AR(1) within each, not across their boundaries.
    model = spec.correlation && 'model' in spec.correlation ? { kind: 'ar1', rho, chainOf: streamOf } : { kind: 'independent' };
  } else if (answers.groupColumn !== undefined) {
    const group = answers.groupColumn;
    model = { kind: 'block', rho, blockOf: unique.map((a, i) => (a.query.where.has(group) ? a.query.where.get(group)! : -1 - i)) };
    noise.set(glmNoise(random, model, unique.length, b));
  } else {
    model = { kind: 'ar1', rho };
    noise.set(glmNoise(random, model, unique.length, b));
  }
  const released = Float64Array.from(truth, (t, i) => (correlated ? snap(t + noise[i]!) : t + noise[i]!));
  return { released, model, correlated, rho };
}

/**
 * ε_eff = √(ΔᵀR⁻¹Δ)/b for the worst one-person change over every possible
 * record, not only the records present (a published ε_eff that moved when one
 * record was added would itself leak). Above 20,000 kinds of record, an upper
 * bound √(Δ/λ_min(R))/b. Undefined for independent noise.
 */
export function effectiveEpsilonOf(spec: DpCountsSpec, answers: AnswerPlan, noisy: NoisyAnswers, sensitivity: number, b: number): { readonly value: number; readonly exact: boolean } | undefined {
  const { model } = noisy;
  // Correlated draws with R = I still share W across the answers: ε_eff = ‖Δ‖₂/b is what the joint release gets.
  if (!noisy.correlated) return undefined;
  const { unique } = answers;
  const records = possibleRecords(unique.filter((a) => a.part === 0).map((a) => a.query), 20_000);
  if (!records) return { value: Math.sqrt(sensitivity / smallestEigenvalueBound(model)) / b, exact: false };
  let worst = 0;
  const position = new Map(records.queried.map((c, j) => [c, j]));
  // A record falls in any one part. Block and per-stream AR(1) models treat every part alike,
  // but one AR(1) chain over all answers does not: the first part starts the chain, the last
  // ends it, and every part between sees the same interior weights, so these three cover all.
  const parts = [...new Set([0, Math.min(1, spec.parts - 1), spec.parts - 1])];
  records.each((tuple) => {
    for (const p of parts) {
      const delta = unique.map((a) => (a.part === p && [...a.query.where].every(([c, v]) => tuple[position.get(c)!] === v) ? 1 : 0));
      worst = Math.max(worst, effectiveEpsilon(model, delta, b));
    }
  });
  return { value: worst, exact: true };
}

/** How the correlated noise is drawn: exact on the grid, then assembled in floating point. */
export const GLM_NOISE_TEXT =
  `symmetric multivariate (generalized) Laplace: W ~ Exp(1) and Z ~ N(0,1) drawn exactly from their discretizations on the 2^−${GRID_BITS} grid, N = √(2W)·b·C·Z assembled in double precision, each answer snapped to a multiple of 2^−${GRID_BITS}`;

/** 95% interval half-width of the noise: discrete Laplace exactly, continuous Laplace b·ln 20. */
export function halfWidth(b: number, discrete: boolean): number {
  if (!discrete) return b * Math.log(20);
  const a = Math.exp(-1 / b);
  let t = 0;
  while ((2 * a ** (t + 1)) / (1 + a) > 0.05) t++;
  return t;
}
