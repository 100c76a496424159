import type { OpenedFile } from '../../common/ipc/api.js';
import { named, own } from '../../common/job/names.js';
import { browserMechanismOf } from '../../mechanisms/browser-registry.js';
import { methodSchema } from '../../mechanisms/job-schema.js';
import type { Problems, WizardContext } from '../components/browser-mechanism.js';
import { plainMessage, specificIssues } from '../components/plain-messages.js';
import { hierarchyProblems } from '../components/recoding.js';
import { buildJob, levelsSearched, recodingOfState } from './job.js';
import { chainColumnProblems, chainJobSchema, chainTypeProblem, isChainMethod, type ChainJob } from '../../mechanisms/chain.js';
import type { MechanismType } from '../../mechanisms/definitions.js';
import { jobMethodTypes } from './chain-choice.js';
import type { WizardState } from './wizard-state.js';

/** What the chosen mechanism's form and checks see of the wizard. */
export function wizardContext(state: WizardState, file: OpenedFile): WizardContext {
  return {
    file,
    roles: state.roles,
    sensitive: file.columns.filter((c) => own(state.roles, c.name) === 'sensitive'),
    recoding: recodingOfState(state),
  };
}

/**
 * Problems that block the run, keyed by the field they concern. The method
 * object the job will hold is parsed with the mechanism's own schema (the one
 * the CLI uses), so the wizard and the job file cannot disagree; the mechanism
 * adds the checks that need the data (ε_max of a column, an infeasible β).
 */
export function parameterProblems(state: WizardState, file: OpenedFile | undefined): Problems {
  if (!file) return { file: 'open a file first' };
  if (!state.chain) return stepProblems(state, file, state.method);
  // A chain: each step's own problems (the identity step's first), then the rules of the chain itself.
  const problems = named<string>();
  for (const type of jobMethodTypes(state)) {
    for (const [key, message] of Object.entries(stepProblems(state, file, type))) if (!Object.hasOwn(problems, key)) problems[key] = message;
  }
  const chain = chainProblem(state);
  if (chain && !Object.hasOwn(problems, CHAIN_KEY)) problems[CHAIN_KEY] = chain;
  return problems;
}

/** The key of a chain's own problem (a rule of the two steps together, not a field of either form). */
export const CHAIN_KEY = 'chain';

/**
 * The first rule of src/mechanisms/chain.ts the wizard's chain breaks (the identity step names the
 * sensitive column, say), in the CLI's words with its key; checked once both steps' forms parse.
 */
export function chainProblem(state: WizardState): string | undefined {
  const job = buildJob(state);
  if (!isChainMethod(job.method)) return undefined;
  const typeProblem = chainTypeProblem(job.method);
  if (typeProblem) return `${typeProblem.key}: ${typeProblem.message}`;
  const parsed = chainJobSchema.safeParse(job);
  if (!parsed.success) return undefined; // Each form names its own problems.
  const first = chainColumnProblems(parsed.data as ChainJob)[0];
  return first ? `${first.key}: ${first.message}` : undefined;
}

/** The problems of one method's form (a chain's step, or the one method). */
export function stepProblems(state: WizardState, file: OpenedFile, type: MechanismType): Problems {
  const problems = named<string>();
  const add = (key: string, message: string): void => {
    if (!Object.hasOwn(problems, key)) problems[key] = message;
  };
  const mechanism = browserMechanismOf(type);
  const context = wizardContext(state, file);
  if (mechanism.sensitive !== 'none' && context.sensitive.length === 0) add('roles', 'mark at least one column as sensitive');
  if (mechanism.sensitive === 'one' && context.sensitive.length > 1) add('roles', `${mechanism.definition.metadata.cardTitle} protects one sensitive column per job`);
  for (const [key, message] of Object.entries(mechanism.formProblems?.(state.drafts[type] as never) ?? {})) add(key, message);
  const method = mechanism.toMethod(state.drafts[type] as never, context);
  const parsed = methodSchema.safeParse(method);
  if (!parsed.success) {
    for (const issue of specificIssues(parsed.error.issues)) add(mechanism.fieldOf?.(issue.path) ?? String(issue.path[0] ?? 'method'), plainMessage(issue));
  }
  if (mechanism.recodes) {
    const checks = { fileId: file.fileId, columns: file.columns, ...(state.hierarchyChecks ? { files: state.hierarchyChecks } : {}) };
    // Only the table's rows: a hierarchy left on a column the method does not recode is not in the job.
    const roles = mechanism.recodedRoles?.(state.drafts[type] as never);
    const shown = roles ? named(Object.entries(state.hierarchies).filter(([column]) => roles.includes(own(state.roles, column) ?? 'quasi'))) : state.hierarchies;
    for (const [key, message] of Object.entries(hierarchyProblems(shown, state.roles, levelsSearched(state), checks))) add(key, message);
  }
  for (const [key, message] of Object.entries(mechanism.dataProblems(state.drafts[type] as never, context))) add(key, message);
  return problems;
}
