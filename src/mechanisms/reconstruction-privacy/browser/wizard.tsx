import type { BrowserMechanism, FormProps, Problems } from '../../../renderer/components/browser-mechanism.js';
import { CheckField } from '../../../renderer/components/fields.js';
import { DomainFields, domainProblems, domainSizes, domainsOf, sensitiveNames, textsOf, type DomainTexts } from '../../../renderer/components/domain-fields.js';
import { epsilonBeyondMax, ReconstructionTestFields, RetentionField, type Bound } from '../../../renderer/components/reconstruction-test-fields.js';
import { reconstructionPrivacy, type ReconstructionPrivacySpec } from '../definition.js';

export interface ReconstructionPrivacyDraft {
  readonly retention: number;
  readonly epsilon: number;
  readonly delta: number;
  readonly bound: Bound;
  readonly strict: boolean;
  /** The domain of each sensitive column, as the field shows it (domain-fields.tsx). */
  readonly domains: DomainTexts;
}

function Form({ draft, set, context, problems }: FormProps<ReconstructionPrivacyDraft>) {
  return (
    <>
      <p className="lead">Set how strongly micro groups are protected.</p>
      <RetentionField retention={draft.retention} set={set} problems={problems} />
      <fieldset className="options">
        <legend>Reconstruction privacy</legend>
        <ReconstructionTestFields epsilon={draft.epsilon} delta={draft.delta} bound={draft.bound} set={set} problems={problems} />
        <CheckField label="Strict: trim the few sampled rows that coin flips add" checked={draft.strict} onChange={(strict) => set({ strict })} help="so every group passes the exact test (recommended)." />
      </fieldset>
      <fieldset className="options">
        <legend>Domain of each sensitive column (the values perturbation draws from)</legend>
        <DomainFields columns={context.sensitive.map((c) => c.name)} texts={draft.domains} file={context.file} set={(domains) => set({ domains })} problems={problems} what="A replaced value is drawn from this list, so each listed value can appear in the release." />
      </fieldset>
    </>
  );
}

export const reconstructionPrivacyBrowser: BrowserMechanism<ReconstructionPrivacySpec, ReconstructionPrivacyDraft> = {
  definition: reconstructionPrivacy,
  sensitive: reconstructionPrivacy.metadata.sensitiveColumns,
  recodes: false,
  tableLevels: null,
  latticeChoice: null,
  fromMethod: (m) => ({ retention: m.retention, epsilon: m.epsilon, delta: m.delta, bound: m.bound, strict: m.strict, domains: textsOf(m.domains) }),
  toMethod: (d, context) => ({ type: 'reconstruction-privacy', retention: d.retention, epsilon: d.epsilon, delta: d.delta, bound: d.bound, strict: d.strict, ...domainsOf(d.domains, sensitiveNames(d.domains, context.roles)) }),
  dataProblems(d, context) {
    const beyond = epsilonBeyondMax(d.epsilon, d.retention, domainSizes(d.domains, context.sensitive));
    return { ...(beyond ? { epsilon: beyond } : ({} as Problems)), ...domainProblems(d.domains, context) };
  },
  fieldOf: (path) => (path[0] === 'domains' && path.length > 1 ? `domain.${String(path[1])}` : String(path[0] ?? '')),
  Form,
};
