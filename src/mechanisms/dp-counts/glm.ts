import type { RandomSource } from '../../common/random/source.js';
import { uniformUnit } from '../../common/random/draws.js';
import { gridExponential, gridGaussian } from '../../common/random/exact-samplers.js';

/**
 * Correlated Laplace noise: the symmetric multivariate Laplace (generalized
 * Laplace with s = 1, μ = 0, Σ = 2b²R): every coordinate of the ideal
 * mechanism is Laplace(b) and the correlation is R. Exp(1) and N(0,1) are drawn
 * exactly on the 2^−20 grid, but their combination is floating point, so the
 * coordinates are Laplace only up to the grid and rounding (the report says so).
 */
/**
 * ar1: correlation ρ^|i−j| along the answers in order; with `chainOf`, only
 * within each chain (consecutive answers with the same id), chains independent.
 */
export type CorrelationModel =
  | { readonly kind: 'independent' }
  | { readonly kind: 'ar1'; readonly rho: number; readonly chainOf?: readonly number[] }
  | { readonly kind: 'block'; readonly rho: number; readonly blockOf: readonly number[] };

export const MAX_RHO = 0.95;

/** Correlates a standard normal vector as the model says, using its structure instead of a Cholesky factor of R. */
function correlate(model: CorrelationModel, z: Float64Array): Float64Array {
  const d = z.length;
  if (model.kind === 'independent') return z;
  if (model.kind === 'ar1') {
    // AR(1): x_1 = z_1, x_t = ρ x_{t−1} + √(1−ρ²) z_t has correlation ρ^{|i−j|}.
    const out = new Float64Array(d);
    const s = Math.sqrt(1 - model.rho * model.rho);
    const chain = model.chainOf;
    for (let t = 0; t < d; t++) out[t] = t === 0 || (chain && chain[t] !== chain[t - 1]) ? z[t]! : model.rho * out[t - 1]! + s * z[t]!;
    return out;
  }
  // Block equicorrelation x_i = √ρ·g_block + √(1−ρ)·z_i: the individual part here, the shared part in glmNoise.
  return z.map((v) => Math.sqrt(1 - model.rho) * v);
}

/** One batch of d correlated Laplace(b) noises: N = √(2W)·b·C·Z, W ~ Exp(1). */
export function glmNoise(source: RandomSource, model: CorrelationModel, d: number, b: number): Float64Array {
  const w = gridExponential(source);
  const z = new Float64Array(d);
  for (let i = 0; i < d; i++) z[i] = gridGaussian(source);
  const x = correlate(model, z);
  if (model.kind === 'block') {
    const shared = new Map<number, number>();
    for (let i = 0; i < d; i++) {
      const block = model.blockOf[i]!;
      let g = shared.get(block);
      if (g === undefined) shared.set(block, (g = gridGaussian(source)));
      x[i] = x[i]! + Math.sqrt(model.rho) * g;
    }
  }
  const scale = Math.sqrt(2 * w) * b;
  return x.map((v) => scale * v);
}

/** Independent Laplace(b) noise as the GLM with R = I would give it, for comparison in attacks. */
export function iidLaplaceNoise(source: RandomSource, d: number, b: number): Float64Array {
  const out = new Float64Array(d);
  for (let i = 0; i < d; i++) out[i] = Math.sqrt(2 * gridExponential(source)) * b * gridGaussian(source);
  return out;
}

/**
 * The streaming iteration mechanism for a series with per-step
 * correlation ρ. Variant "keep": one W for the whole stream (the batch AR(1)
 * GLM). Variant "refresh": W is redrawn before each step from its conditional
 * law given the last noise (1/W ~ InverseGaussian(2b/|n|, 2)).
 */
export class StreamingNoise {
  private w: number;
  private z: number;
  private last: number | undefined;
  constructor(
    private readonly source: RandomSource,
    private readonly b: number,
    private readonly rho: number,
    private readonly variant: 'keep' | 'refresh',
  ) {
    this.w = gridExponential(source);
    this.z = gridGaussian(source);
  }

  next(): number {
    if (this.last !== undefined) {
      if (this.variant === 'refresh') {
        this.w = this.last === 0 ? gammaHalf(this.source) : 1 / inverseGaussian(this.source, (2 * this.b) / Math.abs(this.last), 2);
        this.z = this.last / (Math.sqrt(2 * this.w) * this.b);
      }
      this.z = this.rho * this.z + Math.sqrt(1 - this.rho * this.rho) * gridGaussian(this.source);
    }
    this.last = Math.sqrt(2 * this.w) * this.b * this.z;
    return this.last;
  }
}

/** Michael–Schucany–Haas transformation for the inverse Gaussian (mean μ, shape λ). */
function inverseGaussian(source: RandomSource, mu: number, lambda: number): number {
  const n = gridGaussian(source);
  const y = n * n;
  const x = mu + (mu * mu * y) / (2 * lambda) - (mu / (2 * lambda)) * Math.sqrt(4 * mu * lambda * y + mu * mu * y * y);
  return uniformUnit(source) <= mu / (mu + x) ? x : (mu * mu) / x;
}

/** Gamma(½, rate 1) = N²/2. */
function gammaHalf(source: RandomSource): number {
  const n = gridGaussian(source);
  return (n * n) / 2;
}
