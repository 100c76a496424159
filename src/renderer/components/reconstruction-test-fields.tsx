import { maxEpsilon } from '../../common/randomized-response/bounds.js';
import { NumberField, SelectField } from './fields.js';
import type { Problems } from './browser-mechanism.js';

export type Bound = 'simplified' | 'full';

const BOUNDS = [
  { value: 'simplified', label: 'Simplified Chernoff bound (default)' },
  { value: 'full', label: 'Full Chernoff bound (stricter)' },
] as const;

/** The retention both randomized-response mechanisms take. */
export function RetentionField(props: { retention: number; set: (patch: { retention: number }) => void; problems: Problems }) {
  return (
    <NumberField
      label="Retention probability p" direction={{ stricter: 'smaller' }}
      slider
      min={0.01}
      max={0.99}
      step={0.01}
      value={props.retention}
      onChange={(retention) => props.set({ retention })}
      error={props.problems['retention']}
      help="Each record keeps its true sensitive value with probability p and otherwise gets a random one. Lower p protects more but makes every figure noisier."
    />
  );
}

/** The (ε,δ) test both randomized-response mechanisms use: ε, δ and the bound. */
export function ReconstructionTestFields(props: {
  epsilon: number;
  delta: number;
  bound: Bound;
  set: (patch: { epsilon?: number; delta?: number; bound?: Bound }) => void;
  problems: Problems;
}) {
  return (
    <>
      <NumberField label="ε (relative error)" direction={{ stricter: 'larger' }} min={0.01} max={2} step={0.05} value={props.epsilon} onChange={(epsilon) => props.set({ epsilon })} error={props.problems['epsilon']} help="The adversary's estimate of a group's share of a value must be off by more than this fraction." />
      <NumberField label="δ (confidence)" direction={{ stricter: 'larger' }} min={0.01} max={0.99} step={0.01} value={props.delta} onChange={(delta) => props.set({ delta })} error={props.problems['delta']} help="…with a probability of at least δ." />
      <SelectField label="Bound" value={props.bound} options={BOUNDS} onChange={(bound) => props.set({ bound })} help="The full bound certifies fewer records per group." />
    </>
  );
}

/**
 * ε beyond ε_max = 1 + ((1−p)/m)/(p·f_max) for a group where one value holds
 * every record (f_max = 1): the engine's own bound, checked per sensitive column
 * with m the size of its domain (`domainSizes`: the declared list's, else the file's distinct count).
 */
export function epsilonBeyondMax(epsilon: number, retention: number | undefined, sensitive: readonly { readonly name: string; readonly m: number }[]): string | undefined {
  if (retention === undefined || !(retention > 0 && retention < 1) || !(epsilon > 0)) return undefined;
  for (const c of sensitive) {
    const eMax = maxEpsilon(1, retention, c.m);
    if (epsilon > eMax) return `at most ${eMax.toFixed(4)} for “${c.name}” (groups where one value holds every record)`;
  }
  return undefined;
}
