/** A wizard with a chain chosen (global recoding, then β-privacy) on a small file, for the chain's tests. */
import type { OpenedFile } from '../../src/common/ipc/api.js';
import { named } from '../../src/common/job/names.js';
import { initialState, reducer, type WizardState } from '../../src/renderer/state/wizard-state.js';
import { SURVEY_FILE } from './survey-file.js';

/** 60 records: age (a whole number), sex, diagnosis. */
export const CSV = ['age,sex,diagnosis', ...Array.from({ length: 60 }, (_, i) => `${20 + (i % 40)},${i % 2 ? 'M' : 'F'},${['flu', 'cold', 'asthma'][i % 3]}`)].join('\n') + '\n';

export const FILE: OpenedFile = {
  ...SURVEY_FILE,
  rows: 60,
  columns: [
    { name: 'age', type: 'integer', distinct: 40, missing: 0, top: [{ value: '20', count: 2 }] },
    { name: 'sex', type: 'text', distinct: 2, missing: 0, top: [{ value: 'F', count: 30 }, { value: 'M', count: 30 }] },
    { name: 'diagnosis', type: 'text', distinct: 3, missing: 0, top: [{ value: 'asthma', count: 20 }, { value: 'cold', count: 20 }, { value: 'flu', count: 20 }] },
  ],
};

/** The file opened, roles set as custos init proposes them, "both" answered and the two steps chosen on the Method step. */
export function chained(): WizardState {
  let state = reducer({ ...initialState, inputPath: FILE.path }, { type: 'opened', file: FILE });
  state = reducer(state, { type: 'setRoles', roles: named([['age', 'quasi'], ['sex', 'quasi'], ['diagnosis', 'sensitive']]) });
  state = reducer(state, { type: 'setHierarchy', column: 'age', patch: { kind: 'interval', widths: '5, 10, 20' } as never });
  state = reducer(state, { type: 'answerGoal', answer: { protect: 'both', attacker: 'membership', release: 'records' } });
  state = reducer(state, { type: 'patchDraft', method: 'beta-privacy', patch: { domains: { diagnosis: 'asthma, cold, flu' } } as never });
  return reducer(state, { type: 'chooseChain', chain: { identity: 'global-recoding', attribute: 'beta-privacy' } });
}

