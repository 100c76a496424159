import type { CorrelationModel } from './glm.js';

/**
 * ε_eff = √(Δᵀ R⁻¹ Δ)/b for a one-person change Δ of the answers,
 * with the closed-form inverses of the AR(1) (tridiagonal) and block
 * equicorrelation models, so no d×d matrix is ever inverted.
 */
export function quadraticFormInverse(model: CorrelationModel, delta: readonly number[]): number {
  const d = delta.length;
  if (model.kind === 'independent') return delta.reduce((s, x) => s + x * x, 0);
  if (model.kind === 'ar1') {
    // Tridiagonal inverse per chain: the ends of a chain have 1 on the diagonal, its inside 1 + ρ².
    const r = model.rho;
    const chain = model.chainOf;
    const starts = (i: number): boolean => i === 0 || (chain !== undefined && chain[i] !== chain[i - 1]);
    const ends = (i: number): boolean => i === d - 1 || starts(i + 1);
    let sum = 0;
    for (let i = 0; i < d; i++) {
      const diag = starts(i) || ends(i) ? (starts(i) && ends(i) ? 1 - r * r : 1) : 1 + r * r;
      sum += diag * delta[i]! * delta[i]!;
      if (!ends(i)) sum -= 2 * r * delta[i]! * delta[i + 1]!;
    }
    return sum / (1 - r * r);
  }
  const r = model.rho;
  const blocks = new Map<number, { size: number; sum: number; squares: number }>();
  model.blockOf.forEach((b, i) => {
    const e = blocks.get(b) ?? { size: 0, sum: 0, squares: 0 };
    e.size++;
    e.sum += delta[i]!;
    e.squares += delta[i]! * delta[i]!;
    blocks.set(b, e);
  });
  let total = 0;
  for (const { size, sum, squares } of blocks.values()) total += (squares - (r / (1 + (size - 1) * r)) * sum * sum) / (1 - r);
  return total;
}

export function effectiveEpsilon(model: CorrelationModel, delta: readonly number[], b: number): number {
  return Math.sqrt(quadraticFormInverse(model, delta)) / b;
}

/**
 * A lower bound on the smallest eigenvalue of R, so ΔᵀR⁻¹Δ ≤ |Δ|²/λ_min bounds ε_eff
 * when the possible records are too many to try one by one. AR(1): the spectral
 * density of ρ^|i−j| never falls below (1−|ρ|)/(1+|ρ|). Block equicorrelation:
 * the eigenvalues of a block of size m are 1−ρ and 1+(m−1)ρ.
 */
export function smallestEigenvalueBound(model: CorrelationModel): number {
  if (model.kind === 'independent') return 1;
  if (model.kind === 'ar1') return (1 - Math.abs(model.rho)) / (1 + Math.abs(model.rho));
  const sizes = new Map<number, number>();
  for (const b of model.blockOf) sizes.set(b, (sizes.get(b) ?? 0) + 1);
  const largest = Math.max(1, ...sizes.values());
  return Math.min(1 - model.rho, 1 + (largest - 1) * model.rho);
}
