import type { Action, MethodType, WizardState } from '../state/wizard-state.js';

export const METHODS: readonly { type: MethodType; title: string; protects: string; costs: string; guarantee: string }[] = [
  {
    type: 'reconstruction-privacy',
    title: 'Reconstruction privacy',
    protects: 'Randomizes the sensitive value and samples down groups of people who share all their other values, so that reconstructing what such a group has in common stays unreliable even for an adversary who knows who is in it: the Chernoff bounds on missing the frequency of each value by more than ε stay at least δ.',
    costs: 'Aggregate counts stay unbiased; small-group detail gets noisier and large groups are published from a sample.',
    guarantee: '(ε,δ)-reconstruction privacy, the Chernoff-bound test of Wang, Han, Fu, checked for every micro group; the report names any group that fails it.',
  },
  {
    type: 'uniform-perturbation',
    title: 'Randomized response',
    protects: 'Keeps each sensitive value with probability p and otherwise replaces it by a random value, limiting what one record reveals.',
    costs: 'Cheap and unbiased on aggregates, but groups sharing their other values can still be reconstructed: the risk preview shows how many.',
    guarantee: 'ρ1–ρ2 privacy (the posterior never exceeds ρ2 when the prior is at most ρ1).',
  },
  {
    type: 'beta-privacy',
    title: 'β-privacy buckets',
    protects: 'Publishes the sensitive column apart from the others, in buckets, so each value v is inferred with probability at most β_v — strict for rare, very sensitive values, relaxed for common ones.',
    costs: 'Links between the sensitive value and the other columns are blurred within each bucket; queries are answered by estimation.',
    guarantee: 'β-privacy: inference probability ≤ β_v for every value (Wang, Wang, Fu, Wong).',
  },
  {
    type: 'safe-k-anonymity',
    title: 'Sampling + safe k-anonymization',
    protects: 'Releases a random sample of generalized records (age bands, regions…) in which every combination appears at least k times, with a formal (ε,δ)-differential-privacy guarantee: whether a given person was in the data changes the chance of any outcome by at most a factor e^ε plus δ. Levels you pick after looking at this data are not covered; the private search is.',
    costs: 'Only a sample is released and detail is coarsened; rare combinations are deleted.',
    guarantee: '(ε,δ)-differential privacy with δ = d(k, β, ε) (Li, Qardaji, Su).',
  },
  {
    type: 'partitioned-recoding',
    title: 'Partitioned recoding (k-anonymity, ℓ-diversity, t-closeness)',
    protects: 'The familiar models agencies know, applied to random disjoint parts of the data with one shared generalization, so the parts compose safely.',
    costs: 'Detail is coarsened and classes that fail the model are deleted; no formal DP guarantee by itself.',
    guarantee: 'k-anonymity, ℓ-diversity or t-closeness in every part (Clifton et al.).',
  },
  {
    type: 'dp-counts',
    title: 'Differentially private counts',
    protects: 'Publishes tables of counts (marginals, monthly series) with noise, so the counts reveal little about whether any one person is in the data (exact discrete Laplace: ε-DP); correlated noise, an approximation of Laplace in floating point, resists filtering when the counts are correlated.',
    costs: 'Every count is off by a few units (shown as a 95% interval); small counts become unreliable.',
    guarantee: 'ε-differential privacy (independent noise); per-answer ε with ε_eff for correlated noise (as “Correlated tuple data release via differential privacy”, 2021, proposes).',
  },
];

export function MethodStep(props: { state: WizardState; dispatch: (a: Action) => void }) {
  return (
    <fieldset className="methods">
      <legend className="lead">Choose how to protect the sensitive columns.</legend>
      {METHODS.map((m) => (
        <label key={m.type} className={`method-card${props.state.method === m.type ? ' selected' : ''}`}>
          <input type="radio" name="method" value={m.type} checked={props.state.method === m.type} onChange={() => props.dispatch({ type: 'setMethod', method: m.type })} />
          <span className="method-body">
            <span className="method-title">{m.title}</span>
            <span>
              <strong>Protects against:</strong> {m.protects}
            </span>
            <span>
              <strong>Costs:</strong> {m.costs}
            </span>
            <span className="muted">Guarantee: {m.guarantee}</span>
          </span>
        </label>
      ))}

    </fieldset>
  );
}
