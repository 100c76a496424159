import { buildJob, type JobFile } from './job.js';
import type { StepId, WizardState } from './wizard-state.js';

/** The browser storage key of the draft (the job the wizard stands for, never data). */
export const DRAFT_KEY = 'custos.draft.v1';

export interface SavedDraft {
  readonly savedAt: string;
  readonly step: StepId;
  /** The job as the wizard would save it, without the input's checksum (a fact of the file). */
  readonly job: JobFile;
}

/** What a reload or a crash must not lose: the job draft and the step, once a file is chosen. */
export function draftOf(state: WizardState, now: Date): SavedDraft | undefined {
  if (!state.inputPath) return undefined;
  const job = buildJob(state);
  const { sha256: _sha256, ...input } = job.input;
  return { savedAt: now.toISOString(), step: state.step, job: { ...job, input } };
}

/** The saved draft, or undefined when there is none or it cannot be read. */
export function readDraft(storage: Pick<Storage, 'getItem'>): SavedDraft | undefined {
  try {
    const text = storage.getItem(DRAFT_KEY);
    if (!text) return undefined;
    const draft = JSON.parse(text) as Partial<SavedDraft>;
    return typeof draft.savedAt === 'string' && typeof draft.step === 'string' && typeof draft.job === 'object' && draft.job !== null ? (draft as SavedDraft) : undefined;
  } catch {
    return undefined;
  }
}

export function writeDraft(storage: Pick<Storage, 'setItem' | 'removeItem'>, draft: SavedDraft | undefined): void {
  try {
    if (draft) storage.setItem(DRAFT_KEY, JSON.stringify(draft));
    else storage.removeItem(DRAFT_KEY);
  } catch {
    // Storage full or disabled: the draft is a convenience, never a reason to fail.
  }
}
