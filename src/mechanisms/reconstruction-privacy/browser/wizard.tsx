import type { BrowserMechanism, FormProps, Problems } from '../../../renderer/components/browser-mechanism.js';
import { CheckField } from '../../../renderer/components/fields.js';
import { epsilonBeyondMax, ReconstructionTestFields, RetentionField, type Bound } from '../../../renderer/components/reconstruction-test-fields.js';
import { reconstructionPrivacy, type ReconstructionPrivacySpec } from '../definition.js';

export interface ReconstructionPrivacyDraft {
  readonly retention: number;
  readonly epsilon: number;
  readonly delta: number;
  readonly bound: Bound;
  readonly strict: boolean;
}

function Form({ draft, set, problems }: FormProps<ReconstructionPrivacyDraft>) {
  return (
    <>
      <p className="lead">Set how strongly micro groups are protected.</p>
      <RetentionField retention={draft.retention} set={set} problems={problems} />
      <fieldset className="options">
        <legend>Reconstruction privacy</legend>
        <ReconstructionTestFields epsilon={draft.epsilon} delta={draft.delta} bound={draft.bound} set={set} problems={problems} />
        <CheckField label="Strict: trim the few sampled rows that coin flips add" checked={draft.strict} onChange={(strict) => set({ strict })} help="so every group passes the exact test (recommended)." />
      </fieldset>
    </>
  );
}

export const reconstructionPrivacyBrowser: BrowserMechanism<ReconstructionPrivacySpec, ReconstructionPrivacyDraft> = {
  definition: reconstructionPrivacy,
  sensitive: reconstructionPrivacy.metadata.sensitiveColumns,
  recodes: false,
  fromMethod: (m) => ({ retention: m.retention, epsilon: m.epsilon, delta: m.delta, bound: m.bound, strict: m.strict }),
  toMethod: (d) => ({ type: 'reconstruction-privacy', retention: d.retention, epsilon: d.epsilon, delta: d.delta, bound: d.bound, strict: d.strict }),
  dataProblems(d, context) {
    const beyond = epsilonBeyondMax(d.epsilon, d.retention, context.sensitive);
    return beyond ? { epsilon: beyond } : ({} as Problems);
  },
  Form,
};
