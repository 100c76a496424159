import type { ReviewCheckName } from '../../common/review/release-review.js';
import type { z } from 'zod';
import { withoutHelp } from '../../common/job/job-notes.js';
import type { Role } from '../../common/job/job-parts.js';
import { named, own } from '../../common/job/names.js';
import { browserMechanismOf, type Drafts } from '../../mechanisms/browser-registry.js';
import type { MechanismType, MethodSpecs } from '../../mechanisms/definitions.js';
import { jobSchema } from '../../mechanisms/job-schema.js';
import { specificIssues, plainMessage } from '../components/plain-messages.js';
import { choicesOf, recodingOf, type RecodingChoice } from '../components/recoding.js';
import { initialState, type WizardState } from './wizard-state.js';

/** A job file as written (before the schema applies its defaults). */
export type JobFile = z.input<typeof jobSchema>;

/** The hierarchies and levels of the recoding mechanisms, from the table (identifiers left out). */
export function recodingOfState(state: Pick<WizardState, 'hierarchies' | 'roles'>): RecodingChoice {
  return recodingOf(state.hierarchies, state.roles);
}

function methodOf<T extends MechanismType>(type: T, drafts: Drafts, recoding: RecodingChoice, roles: WizardState['roles'], extras?: WizardState['methodExtras']): JobFile['method'] {
  const shown = browserMechanismOf(type).toMethod(drafts[type], { recoding, roles });
  return { ...(extras?.type === type ? extras.fields : {}), ...shown } as JobFile['method'];
}

/** The wizard's job with another method's form as last filled in (the Compare step's candidates of other methods). */
export function jobWithMethodOf(state: WizardState, type: MechanismType): JobFile {
  return { ...buildJob(state), method: methodOf(type, state.drafts, recodingOfState(state), state.roles, state.methodExtras) };
}

/** The job file the wizard stands for: the CLI runs exactly this, the report embeds it. */
export function buildJob(state: WizardState): JobFile {
  const o = state.fileOptions;
  const missing = o.missing.split(',').map((t) => t.trim());
  const out = state.output;
  return {
    version: 1,
    input: {
      path: state.inputPath,
      missing: [...new Set(missing)],
      onBadRow: o.onBadRow,
      missingSensitive: state.missingSensitive,
      ...(o.delimiter ? { delimiter: o.delimiter } : {}),
      ...(o.encoding ? { encoding: o.encoding } : {}),
      ...(o.sheet ? { sheet: o.sheet } : {}),
      ...(Object.keys(o.dates).length > 0 ? { dates: named(o.dates) } : {}),
      ...(state.file?.sha256 ? { sha256: state.file.sha256 } : {}),
    },
    attributes: named(state.roles),
    ...reviewOf(state),
    method: methodOf(state.method, state.drafts, recodingOfState(state), state.roles, state.methodExtras),
    output: {
      dir: out.dir,
      formats: [...(out.csv ? (['csv'] as const) : []), ...(out.xlsx ? (['xlsx'] as const) : []), ...(out.csv && out.sav ? (['sav'] as const) : []), ...(out.csv && out.dta ? (['dta'] as const) : []), ...(out.parquet ? (['parquet'] as const) : [])],
      report: [...(out.html ? (['html'] as const) : []), ...(out.pdf ? (['pdf'] as const) : []), 'json'],
      delimiter: out.csvDelimiter,
      csv: { encoding: out.csvEncoding, lineEnding: out.csvLineEnding },
      ...(out.internalDir.trim() ? { internalDir: out.internalDir.trim() } : {}),
    },
  };
}

/**
 * The job's review key: the settings a loaded job stated (thresholds the wizard does not show are
 * kept as written) and "Release anyway": the failed checks the custodian accepted, each with the
 * reason given, which replace the loaded acknowledgements.
 */
function reviewOf(state: WizardState): Pick<JobFile, 'review'> {
  const accepted = state.reviewAcceptance && state.reviewAcceptance.reason.trim() !== '' ? state.reviewAcceptance : undefined;
  const acknowledge = accepted ? accepted.checks.map((check) => ({ check: check as ReviewCheckName, reason: accepted.reason.trim() })) : undefined;
  if (state.reviewSettings) {
    // Loaded acknowledgements with one reason are the Risk step's to keep or withdraw; several reasons it cannot show stay as written.
    const loaded = (state.reviewSettings['acknowledge'] ?? []) as { readonly reason: string }[];
    const shown = new Set(loaded.map((a) => a.reason)).size <= 1;
    return { review: { ...state.reviewSettings, acknowledge: acknowledge ?? (shown ? [] : loaded) } as JobFile['review'] };
  }
  return acknowledge ? { review: { acknowledge } as JobFile['review'] } : {};
}

/** The fixed levels as one comparable key (sorted by column), for telling whether they changed. */
export function levelsKey(state: WizardState): string {
  const { hierarchies, levels } = recodingOfState(state);
  return JSON.stringify(Object.keys(hierarchies).sort().map((c) => [c, own(hierarchies, c), own(levels, c) ?? 0]));
}

/** The chosen mechanism picks the generalization levels itself (a private search) instead of taking the table's. */
export function levelsSearched(state: WizardState): boolean {
  const type = state.method;
  return browserMechanismOf(type).levelsSearched?.(state.drafts[type] as never) ?? false;
}

/**
 * A differentially private mechanism recoding at fixed levels: levels picked after looking at this
 * data (a risk preview) are a choice the theorem does not cover.
 */
export function fixedLevelsMatter(state: WizardState): boolean {
  const mechanism = browserMechanismOf(state.method);
  return mechanism.recodes && mechanism.definition.metadata.differentiallyPrivate && !levelsSearched(state);
}

/**
 * True when such a mechanism runs at fixed levels that differ from those a risk preview of the same
 * file showed: the levels were then chosen by looking at this data.
 */
export function levelsChosenAfterPreview(state: WizardState): boolean {
  const seen = state.previewedLevels;
  return fixedLevelsMatter(state) && seen !== undefined && seen.path === state.file?.path && seen.levels !== levelsKey(state);
}

/** A job file that does not parse: every problem with its key, in plain words. */
export class JobFileError extends Error {}

function draftsWith<T extends MechanismType>(drafts: Drafts, type: T, method: MethodSpecs[T]): Drafts {
  return { ...drafts, [type]: browserMechanismOf(type).fromMethod(method) };
}

/**
 * Restores the wizard from a saved job file, parsed with the job schema the
 * CLI uses (the input is inspected again by the caller). A file that is not a
 * valid job is refused with its problems, never half-loaded.
 */
export function stateFromJob(value: unknown): WizardState {
  // A job written by custos init carries notes for people; the wizard shows the settings, not the notes.
  const parsed = jobSchema.safeParse(withoutHelp(value));
  if (!parsed.success) {
    const problems = specificIssues(parsed.error.issues).map((i) => `${i.path.join('.') || 'the file'}: ${plainMessage(i)}`);
    throw new JobFileError(problems.slice(0, 5).join('; ') + (problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''));
  }
  const job = parsed.data;
  const method = job.method;
  const recodes = 'hierarchies' in method;
  const restored: WizardState = {
    ...initialState,
    step: 'open',
    inputPath: job.input.path,
    fileOptions: {
      delimiter: job.input.delimiter ?? '',
      encoding: job.input.encoding ?? '',
      missing: job.input.missing.join(', '),
      sheet: job.input.sheet === undefined || job.input.sheet === null ? '' : String(job.input.sheet),
      onBadRow: job.input.onBadRow,
      dates: named(job.input.dates ?? named()),
    },
    roles: named(Object.entries(job.attributes).map(([name, role]): [string, Role] => [name, role])),
    missingSensitive: job.input.missingSensitive,
    method: method.type,
    drafts: draftsWith(initialState.drafts, method.type, method),
    hierarchies: recodes ? choicesOf(method.hierarchies, 'levels' in method && method.type !== 'global-recoding' ? method.levels : 'search') : named(),
    output: {
      dir: job.output.dir,
      csv: job.output.formats.includes('csv'),
      xlsx: job.output.formats.includes('xlsx'),
      sav: job.output.formats.includes('sav'),
      dta: job.output.formats.includes('dta'),
      parquet: job.output.formats.includes('parquet'),
      html: job.output.report.includes('html'),
      pdf: job.output.report.includes('pdf'),
      internalDir: job.output.internalDir ?? '',
      csvDelimiter: job.output.delimiter,
      csvEncoding: job.output.csv.encoding,
      csvLineEnding: job.output.csv.lineEnding,
    },
  };
  // The review key as the file wrote it; one reason for every accepted check is the Risk step's "Release anyway".
  if (job.review) {
    const reasons = [...new Set(job.review.acknowledge.map((a) => a.reason))];
    (restored as { reviewSettings?: WizardState['reviewSettings'] }).reviewSettings = (value as { review: NonNullable<WizardState['reviewSettings']> }).review;
    if (reasons.length === 1) (restored as { reviewAcceptance?: WizardState['reviewAcceptance'] }).reviewAcceptance = { checks: job.review.acknowledge.map((a) => a.check), reason: reasons[0]! };
  }
  // The method's fields the form does not show are kept as the file wrote them.
  const shown = new Set(Object.keys(methodOf(method.type, restored.drafts, recodingOfState(restored), restored.roles)));
  // Notes (`_help`, `_comment`) are not fields: the form neither shows nor keeps them.
  const written = (withoutHelp(value) as { method: Record<string, unknown> }).method;
  const fields = Object.fromEntries(Object.entries(written).filter(([key]) => !shown.has(key)));
  return Object.keys(fields).length > 0 ? { ...restored, methodExtras: { type: method.type, fields } } : restored;
}

/**
 * The settings of a job file that the wizard would write differently (an explicit query list the
 * form cannot show, say), by key: the person is told before saving can change them.
 */
export function changedOnSave(original: unknown, state: WizardState): string[] {
  const before = jobSchema.parse(withoutHelp(original)).method as unknown as Record<string, unknown>;
  const built = JSON.parse(JSON.stringify(buildJob(state))) as JobFile;
  const reparsed = jobSchema.safeParse(built);
  // A job the form cannot even express (no columns to count, say) is compared as written.
  const after = (reparsed.success ? reparsed.data.method : built.method) as unknown as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key])).map((key) => `method.${key}`);
}
