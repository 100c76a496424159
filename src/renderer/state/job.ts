import type { ReviewCheckName } from '../../common/review/release-review.js';
import type { z } from 'zod';
import { withoutHelp } from '../../common/job/job-notes.js';
import type { Role } from '../../common/job/job-parts.js';
import { named, own, type Named } from '../../common/job/names.js';
import { browserMechanismOf, type Drafts } from '../../mechanisms/browser-registry.js';
import type { MechanismType, MethodSpecs } from '../../mechanisms/definitions.js';
import { jobSchema } from '../../mechanisms/job-schema.js';
import { chainJobSchema, chainTypeProblem, isChainMethod } from '../../mechanisms/chain.js';
import { specificIssues, plainMessage } from '../components/plain-messages.js';
import { choicesOf, recodingOf, type RecodingChoice } from '../components/recoding.js';
import { initialState, type WizardState } from './wizard-state.js';
import { jobMethodTypes } from './chain-choice.js';

/** One method of a job file as written. */
export type JobMethod = z.input<typeof jobSchema>['method'];

/** A job file as written (before the schema applies its defaults): one method, or a chain's two steps. */
export type JobFile = Omit<z.input<typeof jobSchema>, 'method'> & { method: JobMethod | z.input<typeof chainJobSchema>['method'] };

/** The hierarchies and levels of the recoding mechanisms, from the table (identifiers left out). */
export function recodingOfState(state: Pick<WizardState, 'hierarchies' | 'roles'>): RecodingChoice {
  return recodingOf(state.hierarchies, state.roles);
}

function methodOf<T extends MechanismType>(type: T, drafts: Drafts, recoding: RecodingChoice, roles: WizardState['roles'], extras?: WizardState['methodExtras']): JobMethod {
  const shown = browserMechanismOf(type).toMethod(drafts[type], { recoding, roles });
  return { ...(extras?.type === type ? extras.fields : {}), ...shown } as JobMethod;
}

/** The job's method: the one method's draft, or each chain step's own draft in order (identity step first). */
function jobMethodOf(state: WizardState): JobFile['method'] {
  const methods = jobMethodTypes(state).map((type) => methodOf(type, state.drafts, recodingOfState(state), state.roles, state.methodExtras));
  return state.chain ? [methods[0]!, methods[1]!] : methods[0]!;
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
    method: jobMethodOf(state),
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

/** The levels the hierarchy table shows for a job's method (its mechanism's `tableLevels`): fixed, or 'search'. */
function tableLevels<T extends MechanismType>(type: T, method: MethodSpecs[T]): Named<number> | 'search' {
  return browserMechanismOf(type).tableLevels?.(method) ?? 'search';
}

/**
 * Restores the wizard from a saved job file, parsed with the job schema the
 * CLI uses (the input is inspected again by the caller). A file that is not a
 * valid job is refused with its problems, never half-loaded.
 */
export function stateFromJob(value: unknown): WizardState {
  // A job written by custos init carries notes for people; the wizard shows the settings, not the notes.
  const written = withoutHelp(value) as { method?: unknown };
  // A chain whose steps make no chain (two identity steps, say) is refused with the CLI's own words.
  const typeProblem = isChainMethod(written.method) ? chainTypeProblem(written.method) : undefined;
  if (typeProblem) throw new JobFileError(`${typeProblem.key}: ${typeProblem.message}`);
  const parsed = isChainMethod(written.method) ? chainJobSchema.safeParse(written) : jobSchema.safeParse(written);
  if (!parsed.success) {
    const problems = specificIssues(parsed.error.issues).map((i) => `${pathText(i.path) || 'the file'}: ${plainMessage(i)}`);
    throw new JobFileError(problems.slice(0, 5).join('; ') + (problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''));
  }
  const job = parsed.data;
  const steps = Array.isArray(job.method) ? job.method : [job.method];
  const method = steps[0]!;
  const attribute = steps[1];
  // The hierarchy table is the recoding step's: a chain's identity step, or the one method.
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
    ...(attribute ? { chain: { identity: method.type, attribute: attribute.type } } : {}),
    drafts: steps.reduce((drafts, step) => draftsWith(drafts, step.type, step), initialState.drafts),
    hierarchies: recodes ? choicesOf(method.hierarchies, tableLevels(method.type, method)) : named(),
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
  // A chain's steps are restored as their forms show them (changedOnSave names what that changes).
  if (attribute) return restored;
  // The method's fields the form does not show are kept as the file wrote them.
  const shown = new Set(Object.keys(methodOf(method.type, restored.drafts, recodingOfState(restored), restored.roles)));
  // Notes (`_help`, `_comment`) are not fields: the form neither shows nor keeps them.
  const fields = Object.fromEntries(Object.entries(written.method as Record<string, unknown>).filter(([key]) => !shown.has(key)));
  return Object.keys(fields).length > 0 ? { ...restored, methodExtras: { type: method.type, fields } } : restored;
}

/**
 * The settings of a job file that the wizard would write differently (an explicit query list the
 * form cannot show, say), by key: the person is told before saving can change them.
 */
export function changedOnSave(original: unknown, state: WizardState): string[] {
  const schemaOf = (job: { method?: unknown }) => (isChainMethod(job.method) ? chainJobSchema : jobSchema);
  const written = withoutHelp(original) as { method?: unknown };
  const before = stepsOf(schemaOf(written).parse(written).method);
  const built = JSON.parse(JSON.stringify(buildJob(state))) as JobFile;
  const reparsed = schemaOf(built).safeParse(built);
  // A job the form cannot even express (no columns to count, say) is compared as written.
  const after = stepsOf(reparsed.success ? reparsed.data.method : built.method);
  const chain = before.length > 1 || after.length > 1;
  const changed: string[] = [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const [b, a] = [before[i] ?? {}, after[i] ?? {}];
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    changed.push(...keys.filter((key) => JSON.stringify(b[key]) !== JSON.stringify(a[key])).map((key) => (chain ? `method[${i}].${key}` : `method.${key}`)));
  }
  return changed;
}

/** A job's method as the list of its steps (one method: one step). */
function stepsOf(method: unknown): Record<string, unknown>[] {
  return (Array.isArray(method) ? method : [method]) as Record<string, unknown>[];
}

/** A problem's key as the CLI writes it: `method[1].beta`, not `method.1.beta`. */
function pathText(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
