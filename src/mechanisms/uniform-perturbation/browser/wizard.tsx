import { rationalFromNumber, toNumber } from '../../../common/exact/rational.js';
import { maxRetentionForRho } from '../../../common/randomized-response/perturbation/retention.js';
import type { BrowserMechanism, FormProps, Problems } from '../../../renderer/components/browser-mechanism.js';
import { NumberField, SelectField } from '../../../renderer/components/fields.js';
import { DomainFields, domainProblems, domainSizes, domainsOf, sensitiveNames, textsOf, type DomainTexts } from '../../../renderer/components/domain-fields.js';
import { epsilonBeyondMax, ReconstructionTestFields, RetentionField, type Bound } from '../../../renderer/components/reconstruction-test-fields.js';
import { schema, uniformPerturbation, type UniformPerturbationSpec } from '../definition.js';

export interface UniformPerturbationDraft {
  readonly mode: 'retention' | 'rho';
  readonly retention: number;
  readonly rho1: number;
  readonly rho2: number;
  readonly epsilon: number;
  readonly delta: number;
  readonly bound: Bound;
  /** The domain of each sensitive column, as the field shows it (domain-fields.tsx). */
  readonly domains: DomainTexts;
}

/** The ρ1–ρ2 target offered before one is set: a prior of at most 10% must not reach 50%. */
const START_TARGET = { rho1: 0.1, rho2: 0.5 };
const START = schema.parse(uniformPerturbation.suggested);

/** The largest retention for the target over m values, exactly (as the engine derives it), or undefined when the target is not a valid one. */
function largestRetention(rho1: number, rho2: number, m: number): number | undefined {
  if (!(rho1 > 0 && rho1 < rho2 && rho2 < 1) || m < 2) return undefined;
  return toNumber(maxRetentionForRho(rationalFromNumber(rho1), rationalFromNumber(rho2), m).retention);
}

function Form({ draft, set, context, problems }: FormProps<UniformPerturbationDraft>) {
  const rhoMode = draft.mode === 'rho';
  return (
    <>
      <p className="lead">Set how often a sensitive value is kept.</p>
      <SelectField
        label="Set the retention"
        value={draft.mode}
        options={[
          { value: 'retention', label: 'directly' },
          { value: 'rho', label: 'from a ρ1–ρ2 privacy target (the largest safe retention)' },
        ]}
        onChange={(mode) => set({ mode })}
      />
      {!rhoMode && (
        <RetentionField retention={draft.retention} set={set} problems={problems} />
      )}
      <fieldset className="options">
        <legend>{rhoMode ? 'ρ1–ρ2 privacy target' : 'ρ1–ρ2 helper: the largest retention for a privacy target'}</legend>
        <NumberField label="ρ1 (prior at most)" direction={{ stricter: 'larger' }} min={0.001} max={0.999} step={0.01} value={draft.rho1} onChange={(rho1) => set({ rho1 })} error={problems['rho1']} help="An adversary who believes a value with probability at most ρ1…" />
        <NumberField label="ρ2 (posterior at most)" direction={{ stricter: 'smaller' }} min={0.001} max={0.999} step={0.01} value={draft.rho2} onChange={(rho2) => set({ rho2 })} error={problems['rho2']} help="…must not end up believing it with probability above ρ2." />
        <div className="derived">
          {domainSizes(draft.domains, context.sensitive).map((c) => {
            const p = largestRetention(draft.rho1, draft.rho2, c.m);
            return (
              <p key={c.name}>
                “{c.name}” (m = {c.m}): maximum retention <strong>{p !== undefined ? p.toFixed(4) : 'n/a'}</strong>{' '}
                {!rhoMode && p !== undefined && p > 0 && (
                  <button type="button" className="link" onClick={() => set({ retention: Math.floor(p * 10000) / 10000 })}>
                    use it
                  </button>
                )}
              </p>
            );
          })}
        </div>
      </fieldset>
      <fieldset className="options">
        <legend>Domain of each sensitive column (the values perturbation draws from)</legend>
        <DomainFields columns={context.sensitive.map((c) => c.name)} texts={draft.domains} file={context.file} set={(domains) => set({ domains })} problems={problems} what="A replaced value is drawn from this list, so each listed value can appear in the release." />
      </fieldset>
      <fieldset className="options">
        <legend>Leak test (which micro groups could be reconstructed)</legend>
        <ReconstructionTestFields epsilon={draft.epsilon} delta={draft.delta} bound={draft.bound} set={set} problems={problems} />
      </fieldset>
    </>
  );
}

export const uniformPerturbationBrowser: BrowserMechanism<UniformPerturbationSpec, UniformPerturbationDraft> = {
  definition: uniformPerturbation,
  sensitive: uniformPerturbation.metadata.sensitiveColumns,
  recodes: false,
  tableLevels: null,
  latticeChoice: null,
  fromMethod: (m) => ({
    mode: m.rho1 !== undefined ? 'rho' : 'retention',
    retention: m.retention ?? START.retention!,
    rho1: m.rho1 ?? START_TARGET.rho1,
    rho2: m.rho2 ?? START_TARGET.rho2,
    epsilon: m.epsilon,
    delta: m.delta,
    bound: m.bound,
    domains: textsOf(m.domains),
  }),
  toMethod: (d, context) => ({
    type: 'uniform-perturbation',
    ...(d.mode === 'retention' ? { retention: d.retention } : { rho1: d.rho1, rho2: d.rho2 }),
    epsilon: d.epsilon,
    delta: d.delta,
    bound: d.bound,
    ...domainsOf(d.domains, sensitiveNames(d.domains, context.roles)),
  }),
  dataProblems(d, context) {
    const beyond = epsilonBeyondMax(d.epsilon, d.mode === 'retention' ? d.retention : undefined, domainSizes(d.domains, context.sensitive));
    return { ...(beyond ? { epsilon: beyond } : ({} as Problems)), ...domainProblems(d.domains, context) };
  },
  fieldOf: (path) => (path[0] === 'domains' && path.length > 1 ? `domain.${String(path[1])}` : String(path[0] ?? '')),
  Form,
};
