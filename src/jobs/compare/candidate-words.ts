import type { MethodOutcome } from '../method-kit/outcome.js';

const WORDS = new Map<string, string>([
  ['retention', 'retention'], ['epsilon', 'ε'], ['delta', 'δ'], ['riskEpsilon', 'test ε'], ['riskDelta', 'test δ'], ['riskBound', 'bound'],
  ['bound', 'bound'], ['strict', 'strict'], ['unprotectable', 'unprotectable groups'], ['rho1', 'ρ1'], ['rho2', 'ρ2'],
  ['coefficient', 'β coefficient'], ['betaDefault', 'β'], ['algorithm', 'algorithm'], ['minBucket', 'smallest bucket'], ['maxBucket', 'largest bucket'],
  ['fakeValues', 'fake values per bucket'], ['k', 'k'], ['sampling', 'sampling β'], ['targetEpsilon', 'target ε'], ['targetDelta', 'target δ'],
  ['parts', 'parts'], ['model', 'model'], ['sensitive', 'sensitive'],
]);

/** The method's parameters in words, as its report lists them ("retention 0.5, ε 0.5, δ 0.3"). */
export function parametersInWords(outcome: MethodOutcome): string {
  return Object.entries(outcome.method.parameters)
    .map(([key, value]) => {
      const level = key.startsWith('level.') ? `level of ${key.slice(6)}` : undefined;
      return `${level ?? WORDS.get(key) ?? key} ${String(value)}`;
    })
    .join(', ');
}

function small(value: number): string {
  return value !== 0 && Math.abs(value) < 1e-3 ? value.toExponential(2) : String(Number(value.toPrecision(6)));
}

/** The formal guarantee as a short label: "(ε = 1, δ = 1.00e-5)-DP", "β-privacy, coefficient 8". */
export function guaranteeLabel(outcome: MethodOutcome): string {
  const g = outcome.guarantee;
  const p = outcome.method.parameters;
  const broken = g.holds === false ? ' — does not hold' : '';
  switch (outcome.method.type) {
    case 'uniform-perturbation':
      return (g.rho ? `ρ1–ρ2 privacy (ρ1 = ${g.rho.rho1}, ρ2 = ${g.rho.rho2})` : `ρ1–ρ2 privacy at retention ${String(p['retention'])}`) + broken;
    case 'reconstruction-privacy':
      return `(ε = ${g.epsilon}, δ = ${g.delta})-reconstruction privacy${broken}`;
    case 'beta-privacy':
      return (p['coefficient'] !== undefined ? `β-privacy, β_v = min(1, ${String(p['coefficient'])}·f_v)` : `β-privacy, β = ${String(p['betaDefault'])} (with any per-value β of the job)`) + broken;
    case 'safe-k-anonymity':
      return `(ε = ${small(g.epsilon ?? Number.NaN)}, δ = ${small(g.delta ?? Number.NaN)})-DP${broken}`;
    default:
      return `${g.name}${broken}`;
  }
}
