import { named } from '../../common/job/names.js';
import { initialRole, INITIAL_DRAFTS, type Role, type WizardState } from './wizard-state.js';

/** The steps whose settings "Reset this step" puts back to the suggestions. */
export type ResettableStep = 'columns' | 'parameters';

/**
 * A step's settings as the wizard first suggested them, the rest of the job untouched. Columns:
 * each column's suggested role (a direct identifier dropped, the others quasi-identifiers) and
 * missing sensitive values kept as a value of their own. Parameters: the chosen method's suggested
 * parameters (from its schema) and no hierarchies; the other methods' forms keep what was entered.
 */
export function resetStep(state: WizardState, step: ResettableStep): WizardState {
  if (step === 'columns') {
    if (!state.file) return state;
    const rows = state.file.rows;
    return { ...state, roles: named(state.file.columns.map((c): [string, Role] => [c.name, initialRole(c, rows)])), missingSensitive: 'category' };
  }
  return { ...state, drafts: { ...state.drafts, [state.method]: INITIAL_DRAFTS[state.method] }, hierarchies: named() };
}
