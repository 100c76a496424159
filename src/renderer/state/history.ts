import type { Role } from '../../common/job/job-parts.js';
import { own, type Named } from '../../common/job/names.js';
import type { MissingSensitive } from '../../common/table/missing-sensitive.js';
import { metadataOf, type MechanismType } from '../../mechanisms/definitions.js';
import type { Drafts } from '../../mechanisms/browser-registry.js';
import type { HierarchyChoice } from '../components/recoding.js';
import { resetStep, type ResettableStep } from './reset-step.js';
import { defaultOutDir, initialState, reducer, type Action, type WizardState } from './wizard-state.js';

/**
 * Multi-step undo and redo of what defines the job (roles, the treatment of missing sensitive
 * values, the method, its parameters, the hierarchies), around the wizard's reducer: navigation,
 * reading options, outputs and the run are not changes one undoes. The wizard's reducer stays as it
 * is; this module decides which of its results were changes of the job.
 */

/** The part of the wizard's state that an undo restores. */
export interface JobSnapshot {
  readonly roles: Named<Role>;
  readonly missingSensitive: MissingSensitive;
  readonly method: MechanismType;
  readonly drafts: Drafts;
  readonly hierarchies: Named<HierarchyChoice>;
}

/** One change of the job: the job before and after it, and what it was in words ("k = 5 → 10"). */
export interface Change {
  readonly before: JobSnapshot;
  readonly after: JobSnapshot;
  readonly label: string;
  /** Consecutive changes of the same field (typing "10" into k, dragging a slider) are one step. */
  readonly field?: string;
}

export interface History {
  readonly present: WizardState;
  /** Oldest first: the last one is what Undo undoes. */
  readonly past: readonly Change[];
  /** Newest undo last: the last one is what Redo redoes. */
  readonly future: readonly Change[];
}

/** How many changes can be undone: older ones are forgotten. */
export const HISTORY_LIMIT = 50;

export type HistoryAction = Action | { type: 'redo' } | { type: 'resetStep'; step: ResettableStep };

export const initialHistory: History = { present: initialState, past: [], future: [] };

/** Actions that may change the job; any other action (go, patchOutput, runStatus…) is never recorded. */
const JOB_ACTIONS: ReadonlySet<HistoryAction['type']> = new Set(['setRole', 'setRoles', 'setMethod', 'answerGoal', 'setMissingSensitive', 'patchDraft', 'setHierarchy', 'useCandidate', 'resetStep']);

export function snapshotOf(state: WizardState): JobSnapshot {
  return { roles: state.roles, missingSensitive: state.missingSensitive, method: state.method, drafts: state.drafts, hierarchies: state.hierarchies };
}

function sameSnapshot(a: JobSnapshot, b: JobSnapshot): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The state with the job of a snapshot; a release folder the wizard named follows the method back. */
function restore(state: WizardState, snapshot: JobSnapshot): WizardState {
  const { undo: _single, ...rest } = state;
  return {
    ...rest,
    ...snapshot,
    ...(state.output.dirAuto && state.file && snapshot.method !== state.method ? { output: { ...state.output, dir: defaultOutDir(state.file.path, snapshot.method) } } : {}),
  };
}

function fieldOf(action: HistoryAction): string | undefined {
  if (action.type === 'patchDraft') return `draft:${action.method}:${Object.keys(action.patch).sort().join(',')}`;
  if (action.type === 'setHierarchy') return `hierarchy:${action.column}:${Object.keys(action.patch).sort().join(',')}`;
  return undefined;
}

export function historyReducer(history: History, action: HistoryAction): History {
  const { present, past, future } = history;
  if (action.type === 'undo') {
    const change = past.at(-1);
    return change ? { present: restore(present, change.before), past: past.slice(0, -1), future: [...future, change] } : history;
  }
  if (action.type === 'redo') {
    const change = future.at(-1);
    return change ? { present: restore(present, change.after), past: [...past, change], future: future.slice(0, -1) } : history;
  }
  const next = action.type === 'resetStep' ? resetStep(present, action.step) : reducer(present, action);
  // Another job or another file: earlier changes were of something no longer open.
  if (action.type === 'load' || (action.type === 'opened' && present.file?.path !== next.file?.path)) return { present: next, past: [], future: [] };
  if (!JOB_ACTIONS.has(action.type)) return { ...history, present: next };
  const before = snapshotOf(present);
  const after = snapshotOf(next);
  if (sameSnapshot(before, after)) return { ...history, present: next };
  const field = fieldOf(action);
  const last = past.at(-1);
  // The same field again, with nothing between: one step, from where it started.
  if (field !== undefined && last?.field === field && future.length === 0) {
    const merged = sameSnapshot(last.before, after) ? [] : [{ before: last.before, after, label: describeChange(last.before, after), field }];
    return { present: next, past: [...past.slice(0, -1), ...merged], future: [] };
  }
  const change: Change = { before, after, label: action.type === 'resetStep' ? `reset the ${action.step === 'columns' ? 'Columns' : 'Parameters'} step` : describeChange(before, after), ...(field ? { field } : {}) };
  return { present: next, past: [...past, change].slice(-HISTORY_LIMIT), future: [] };
}

/** A value as a change names it: short, and never more than a few words. */
function shown(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  return text.length > 24 ? `${text.slice(0, 23)}…` : text;
}

function differingKeys(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** What a change did, in words: the first two differences and how many more. */
export function describeChange(before: JobSnapshot, after: JobSnapshot): string {
  const parts: string[] = [];
  if (before.method !== after.method) parts.push(`method: ${metadataOf(before.method)?.cardTitle ?? before.method} → ${metadataOf(after.method)?.cardTitle ?? after.method}`);
  const roles = differingKeys(before.roles, after.roles);
  if (roles.length === 1) parts.push(`${roles[0]}: ${shown(own(before.roles, roles[0]!))} → ${shown(own(after.roles, roles[0]!))}`);
  else if (roles.length > 1) parts.push(`roles of ${roles.length} columns`);
  if (before.missingSensitive !== after.missingSensitive) parts.push(`missing sensitive values: ${before.missingSensitive} → ${after.missingSensitive}`);
  const draftBefore = before.drafts[after.method] as unknown as Record<string, unknown>;
  const draftAfter = after.drafts[after.method] as unknown as Record<string, unknown>;
  for (const key of differingKeys(draftBefore, draftAfter)) parts.push(`${key} = ${shown(draftBefore[key])} → ${shown(draftAfter[key])}`);
  for (const column of differingKeys(before.hierarchies, after.hierarchies)) {
    const a = (own(before.hierarchies, column) ?? {}) as Record<string, unknown>;
    const b = (own(after.hierarchies, column) ?? {}) as Record<string, unknown>;
    const keys = differingKeys(a, b);
    parts.push(keys.length === 1 ? `${column} ${keys[0]} = ${shown(a[keys[0]!])} → ${shown(b[keys[0]!])}` : `${column}'s hierarchy`);
  }
  if (parts.length === 0) return 'a change of the job';
  return parts.length <= 2 ? parts.join('; ') : `${parts.slice(0, 2).join('; ')} and ${parts.length - 2} more`;
}

