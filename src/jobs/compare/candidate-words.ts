import { comparedPartsOf } from '../../mechanisms/node-registry.js';
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

/** The formal guarantee as a short label: "(ε = 1, δ = 1.00e-5)-DP", "β-privacy, coefficient 8" (the mechanism's own `compare.guaranteeLabel`). */
export function guaranteeLabel(outcome: MethodOutcome): string {
  const broken = outcome.guarantee.holds === false ? ' — does not hold' : '';
  return `${comparedPartsOf(outcome.method.type).definition.guaranteeLabel(outcome)}${broken}`;
}
