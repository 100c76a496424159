import type { ColumnInfo, OpenedFile, Report, RunStatus } from '../../common/ipc/api.js';
import { output, type Role } from '../../common/job/job-parts.js';
import { named, own, withName, type Named } from '../../common/job/names.js';
import { suggestRole } from '../../common/job/role-suggestions.js';
import type { DateReading } from '../../common/table/date-text.js';
import type { MissingSensitive } from '../../common/table/missing-sensitive.js';
import { overallFraction } from '../../common/progress.js';
import { browserMechanismOf, type Drafts } from '../../mechanisms/browser-registry.js';
import { DEFAULT_MECHANISM, definitionOf, MECHANISM_TYPES, type MechanismType, type MethodSpecs } from '../../mechanisms/definitions.js';
import { adviseMethods, answerGoal, selectable, type GoalAnswers } from './method-goal.js';
import { keepWhatApplies } from './switch-file.js';
import type { ChainChoice } from './chain-choice.js';
import { NO_HIERARCHY, type HierarchyCheck, type HierarchyChoice } from '../components/recoding.js';

export type { Role };

export const STEPS = [
  { id: 'open', title: 'Open' },
  { id: 'columns', title: 'Columns' },
  { id: 'method', title: 'Method' },
  { id: 'parameters', title: 'Parameters' },
  // Optional: Next from Parameters passes it by; it is reached from the step list or the Parameters step's own button.
  { id: 'compare', title: 'Compare', optional: true },
  { id: 'risk', title: 'Risk preview' },
  { id: 'run', title: 'Run' },
  { id: 'results', title: 'Results' },
  { id: 'export', title: 'Export' },
] as const;

export type StepId = (typeof STEPS)[number]['id'];

/** The step Next leads to from a step: the following one that is not optional (Compare is visited by choice). */
export function nextStepAfter(step: StepId): (typeof STEPS)[number] | undefined {
  const index = STEPS.findIndex((s) => s.id === step);
  return STEPS.slice(index + 1).find((s) => !('optional' in s));
}

/** A step's number in the flow: optional steps have none, so the numbers of the others do not move. */
export function stepNumber(step: StepId): number | undefined {
  const flow = STEPS.filter((s) => !('optional' in s));
  const at = flow.findIndex((s) => s.id === step);
  return at < 0 ? undefined : at + 1;
}

/** The step Back leads to: the previous one that is not optional. */
export function previousStepBefore(step: StepId): (typeof STEPS)[number] | undefined {
  const index = STEPS.findIndex((s) => s.id === step);
  return STEPS.slice(0, index).reverse().find((s) => !('optional' in s));
}

export interface FileOptionsState {
  /** '' = detect. */
  readonly delimiter: string;
  readonly encoding: string;
  /** Comma-separated tokens read as missing. */
  readonly missing: string;
  readonly sheet: string;
  /** Rows that cannot be read: skipped (not released; their line numbers go into the internal report), or the run refuses. */
  readonly onBadRow: 'skip' | 'error';
  /** The date format the person chose for a column (input.dates), or "text"; a column not named is read as its values show. */
  readonly dates: Named<DateReading>;
}

export interface OutputState {
  readonly dir: string;
  /** The wizard named the release folder (after the input and the method, one of its own per run); false once the person types or chooses one. */
  readonly dirAuto?: boolean;
  readonly csv: boolean;
  readonly xlsx: boolean;
  /** An SPSS or Stata file beside the CSV (on by default for an input in that format, so its syntax keeps working). */
  readonly sav: boolean;
  readonly dta: boolean;
  /** Each released table as an Apache Parquet file too (release.parquet). */
  readonly parquet: boolean;
  readonly html: boolean;
  readonly pdf: boolean;
  /** Where the confidential internal report goes; empty: beside the release, named after it with “-internal”. */
  readonly internalDir: string;
  /** How CSV files are written: delimiter, encoding and line ending (the job's output.delimiter and output.csv). */
  readonly csvDelimiter: string;
  readonly csvEncoding: 'utf-8' | 'utf-8-bom' | 'windows-1252';
  readonly csvLineEnding: 'crlf' | 'lf';
}

export interface WizardState {
  readonly step: StepId;
  readonly inputPath: string;
  readonly fileOptions: FileOptionsState;
  readonly file?: OpenedFile;
  readonly roles: Named<Role>;
  /** How missing values of the sensitive columns are treated (the job's input.missingSensitive). */
  readonly missingSensitive: MissingSensitive;
  /** The job's method.type: also the key of its draft and its report section. */
  readonly method: MechanismType;
  /**
   * "Protect identity, then the sensitive value": the job's method is the list of both steps, each
   * from its own draft (chain-choice.ts); `method` is then the identity step. Absent: one method.
   */
  readonly chain?: ChainChoice;
  /** The Method step's answers (what must be protected, the attacker, records or tables); not part of the job. */
  readonly goal?: GoalAnswers;
  /** Every mechanism's form as last filled in, so switching method and back loses nothing. */
  readonly drafts: Drafts;
  /**
   * Settings of a job file opened in the wizard that its form does not show (a declared domain, the
   * attack's size, minBucket…), kept as written so saving the job loses nothing.
   */
  readonly methodExtras?: { readonly type: MechanismType; readonly fields: Readonly<Record<string, unknown>> };
  /** The per-column generalization the recoding mechanisms share. */
  readonly hierarchies: Named<HierarchyChoice>;
  /** The parameters before the last change, so it can be undone. */
  readonly undo?: { readonly drafts: Drafts; readonly hierarchies: Named<HierarchyChoice> };
  /** The host's checks of hierarchy files against their columns, by column. */
  readonly hierarchyChecks?: Named<HierarchyCheck>;
  readonly output: OutputState;
  readonly run?: { readonly id: string; readonly status: RunStatus; readonly startedAt?: number; readonly shown?: number };
  /**
   * The fixed generalization levels a risk preview of this file was shown for. Levels changed
   * after it were chosen by looking at the data, which the DP theorem does not cover.
   */
  readonly previewedLevels?: { readonly path: string; readonly levels: string };
  readonly report?: Report;
  /**
   * "Release anyway": the disclosure review's failed checks the custodian accepts, with the reason (the
   * job's review.acknowledge). Absent: a release that fails the review is not written.
   */
  readonly reviewAcceptance?: { readonly checks: readonly string[]; readonly reason: string };
  /** The `review` key of a job opened in the wizard, as written (its thresholds are kept on save). */
  readonly reviewSettings?: Readonly<Record<string, unknown>>;
  /** The settings of the file open before that did not apply to the one opened since (named on the Open step). */
  readonly switched?: { readonly from: string; readonly dropped: readonly string[] };
  /** The comparison a setting was chosen from on the Compare step: the run puts it into its internal folder. */
  readonly comparison?: { readonly id: string; readonly chosen: string; readonly candidates: number };
}

/** A mechanism's first draft: its schema's parse of the method it suggests (so defaults live in the schema only). */
function suggestedDraft<T extends MechanismType>(type: T): Drafts[T] {
  const definition = definitionOf(type);
  return browserMechanismOf(type).fromMethod(definition.schema.parse(definition.suggested) as MethodSpecs[T]);
}

export const INITIAL_DRAFTS = Object.fromEntries(MECHANISM_TYPES.map((t) => [t, suggestedDraft(t)])) as unknown as Drafts;

/** The job schema's own output defaults: which files a release holds unless the person says otherwise. */
const OUTPUT_DEFAULTS = output.parse(undefined);

export const initialState: WizardState = {
  step: 'open',
  inputPath: '',
  fileOptions: { delimiter: '', encoding: '', missing: ', ?', sheet: '', onBadRow: 'skip', dates: named() },
  roles: named(),
  // A missing sensitive value becomes a value of its own unless the person chooses otherwise: every record stays.
  missingSensitive: 'category',
  method: DEFAULT_MECHANISM,
  drafts: INITIAL_DRAFTS,
  hierarchies: named(),
  output: {
    dir: '',
    csv: OUTPUT_DEFAULTS.formats.includes('csv'),
    xlsx: OUTPUT_DEFAULTS.formats.includes('xlsx'),
    sav: false,
    dta: false,
    parquet: OUTPUT_DEFAULTS.formats.includes('parquet'),
    html: OUTPUT_DEFAULTS.report.includes('html'),
    pdf: OUTPUT_DEFAULTS.report.includes('pdf'),
    internalDir: '',
    csvDelimiter: OUTPUT_DEFAULTS.delimiter,
    csvEncoding: OUTPUT_DEFAULTS.csv.encoding,
    csvLineEnding: OUTPUT_DEFAULTS.csv.lineEnding,
  },
};

type DraftPatch = { [T in MechanismType]: { type: 'patchDraft'; method: T; patch: Partial<Drafts[T]> } }[MechanismType];

export type Action =
  | { type: 'go'; step: StepId }
  | { type: 'setInputPath'; path: string }
  | { type: 'setFileOptions'; options: Partial<FileOptionsState> }
  | { type: 'opened'; file: OpenedFile; /** The file of a job being restored: its outputs are the job's. */ fromJob?: boolean }
  | { type: 'openFailed'; path: string }
  | { type: 'setRole'; column: string; role: Role }
  | { type: 'setRoles'; roles: Named<Role> }
  | { type: 'setMethod'; method: MechanismType }
  /** The Method step's "Use these two steps": a chain of an identity and an attribute method. */
  | { type: 'chooseChain'; chain: ChainChoice }
  /** An answer on the Method step: a method that does not fit the answers gives way to the first recommended. */
  | { type: 'answerGoal'; answer: GoalAnswers }
  | { type: 'setMissingSensitive'; missingSensitive: MissingSensitive }
  | DraftPatch
  | { type: 'patchOutput'; patch: Partial<OutputState> }
  | { type: 'setHierarchy'; column: string; patch: Partial<HierarchyChoice> }
  | { type: 'hierarchyChecked'; column: string; check: HierarchyCheck }
  | { type: 'undo' }
  | { type: 'runStarted'; id: string; at: number }
  | { type: 'runStatus'; status: RunStatus }
  | { type: 'load'; state: WizardState }
  | { type: 'useCandidate'; method: MechanismType; /** The current chain, compared as one candidate. */ chain?: ChainChoice; drafts: Drafts; comparison: NonNullable<WizardState['comparison']> }
  | { type: 'previewed'; path: string; levels: string }
  | { type: 'acceptReview'; acceptance?: NonNullable<WizardState['reviewAcceptance']> }
  /** The population the records were drawn from, as the job's review.samplingFraction (absent: not stated). */
  | { type: 'setSamplingFraction'; fraction?: number };

/** Above this many records a workbook is left out of a new file's outputs, with the reason shown (it takes most of a run). */
export const LARGE_RELEASE_ROWS = 200_000;

/** Release folder next to the input: "<folder>/<name>-release", or "<folder>/<name>-<method>-release" named after the method too. */
export function defaultOutDir(path: string, method?: MechanismType): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const folder = cut >= 0 ? path.slice(0, cut) : '.';
  const name = path.slice(cut + 1).replace(/\.[^.]+$/, '');
  return `${folder}${cut >= 0 ? path[cut] : '/'}${name}${method ? `-${method}` : ''}-release`;
}

/** A new column's role: dropped when it looks like a direct identifier, else a quasi-identifier. */
export function initialRole(column: ColumnInfo, rows: number): Role {
  return suggestRole(column, rows)?.role === 'identifier' ? 'identifier' : 'quasi';
}

export function reducer(state: WizardState, action: Action): WizardState {
  switch (action.type) {
    case 'go':
      return { ...state, step: action.step };
    case 'setInputPath':
      return { ...state, inputPath: action.path };
    case 'setFileOptions':
      return { ...state, fileOptions: { ...state.fileOptions, ...action.options } };
    case 'opened': {
      // Keep roles the user already chose for columns that still exist. New columns start as
      // quasi-identifiers, except those that look like direct identifiers: they start dropped, the
      // safe side for a release (the Columns step says so, and one click keeps them).
      const roles = named(action.file.columns.map((c): [string, Role] => [c.name, own(state.roles, c.name) ?? initialRole(c, action.file.rows)]));
      const sameFile = state.file?.path === action.file.path;
      const { comparison: _comparison, switched: _switched, ...kept } = state;
      // Another file keeps the settings that name its columns and sheets; the rest is dropped and named.
      const switched = !sameFile && !action.fromJob && state.file ? keepWhatApplies(state, action.file) : undefined;
      return {
        // A comparison measured another file: it is no evidence for this one.
        ...(sameFile ? state : kept),
        // Nothing dropped, nothing changed: the state stays as it was (a new reading-options object would read the file again).
        ...(switched && switched.dropped.length > 0 ? { ...switched.state, switched: { from: state.file!.name, dropped: switched.dropped } } : {}),
        file: action.file,
        // A re-read of the open file (a reading option changed) keeps a path typed meanwhile.
        inputPath: sameFile ? state.inputPath : action.file.path,
        roles,
        output: {
          ...state.output,
          // A restored job releases where it released before (the Run step asks before replacing it); another file gets a folder beside it, named after it and the method.
          ...((sameFile || action.fromJob) && state.output.dir ? {} : { dir: defaultOutDir(action.file.path, state.method), dirAuto: true }),
          // A newly opened large file starts without the workbook: it is the slowest output by far.
          ...(sameFile || action.fromJob ? {} : { xlsx: state.output.xlsx && action.file.rows <= LARGE_RELEASE_ROWS, sav: action.file.format === 'sav', dta: action.file.format === 'dta', parquet: state.output.parquet || action.file.format === 'parquet' }),
        },
      };
    }
    case 'openFailed': {
      // A file that cannot be read replaces the earlier one: nothing may still point at it.
      const { file: _file, report: _report, run: _run, ...rest } = state;
      return { ...rest, inputPath: action.path };
    }
    case 'setRole':
      return { ...state, roles: withName(state.roles, action.column, action.role) };
    case 'setRoles':
      return { ...state, roles: named(state.roles, action.roles) };
    case 'setMethod': {
      // One method chosen: the job is no chain any more (both steps' drafts stay, as every draft does).
      const { chain: _chain, ...single } = state;
      // A folder the wizard named follows the method; one the person chose stays.
      return { ...single, method: action.method, ...(state.output.dirAuto && state.file ? { output: { ...state.output, dir: defaultOutDir(state.file.path, action.method) } } : {}) };
    }
    case 'chooseChain':
      return { ...reducer(state, { type: 'setMethod', method: action.chain.identity }), chain: action.chain };
    case 'answerGoal': {
      const goal = answerGoal(state.goal ?? {}, action.answer);
      const advice = adviseMethods(goal);
      // Answers that recommend no chain any more (identity only, say) leave one method: the identity step.
      const { chain: _chain, ...single } = state;
      const answered = state.chain && !(advice.kind === 'advice' && advice.chain) ? { ...single, goal } : { ...state, goal };
      return advice.kind === 'advice' && !selectable(advice).includes(state.method) ? reducer(answered, { type: 'setMethod', method: advice.preselect }) : answered;
    }
    case 'setMissingSensitive':
      return { ...state, missingSensitive: action.missingSensitive };
    case 'patchDraft':
      return { ...state, undo: { drafts: state.drafts, hierarchies: state.hierarchies }, drafts: { ...state.drafts, [action.method]: { ...state.drafts[action.method], ...action.patch } } };
    case 'patchOutput':
      return { ...state, output: { ...state.output, ...action.patch } };
    case 'undo': {
      if (!state.undo) return state;
      const { undo, ...rest } = state;
      return { ...rest, drafts: undo.drafts, hierarchies: undo.hierarchies };
    }
    case 'setHierarchy':
      return { ...state, undo: { drafts: state.drafts, hierarchies: state.hierarchies }, hierarchies: withName(state.hierarchies, action.column, { ...(own(state.hierarchies, action.column) ?? NO_HIERARCHY), ...action.patch }) };
    case 'hierarchyChecked':
      return { ...state, hierarchyChecks: withName(state.hierarchyChecks ?? named(), action.column, action.check) };
    case 'acceptReview': {
      const { reviewAcceptance: _old, ...rest } = state;
      return action.acceptance ? { ...rest, reviewAcceptance: action.acceptance } : rest;
    }
    case 'setSamplingFraction': {
      // One way of stating the population: a fraction given here replaces a loaded population size.
      const { populationSize: _size, samplingFraction: _fraction, ...rest } = state.reviewSettings ?? {};
      return { ...state, reviewSettings: action.fraction === undefined ? rest : { ...rest, samplingFraction: action.fraction } };
    }
    case 'previewed':
      // The first preview of a file is kept: a later preview of changed levels must not make them look unchosen.
      return state.previewedLevels?.path === action.path ? state : { ...state, previewedLevels: { path: action.path, levels: action.levels } };
    case 'runStarted':
      return { ...state, run: { id: action.id, status: { id: action.id, state: 'running', fraction: 0 }, startedAt: action.at, shown: 0 } };
    case 'runStatus': {
      // The bar only moves forward: the whole run's fraction, never a stage's restarting at 0%.
      const overall = action.status.state === 'done' ? 1 : overallFraction(action.status.stage, action.status.fraction);
      const shown = Math.max(state.run?.id === action.status.id ? (state.run.shown ?? 0) : 0, overall);
      return {
        ...state,
        run: { id: action.status.id, status: action.status, shown, ...(state.run?.startedAt !== undefined ? { startedAt: state.run.startedAt } : {}) },
        ...(action.status.state === 'done' && action.status.report ? { report: action.status.report } : {}),
      };
    }
    case 'load':
      return action.state;
    case 'useCandidate':
      // The chosen candidate's method and parameters fill the job; back into the flow toward Run.
      return {
        // A candidate of one method makes the job no chain any more; the current chain stays one.
        ...reducer(state, action.chain ? { type: 'chooseChain', chain: action.chain } : { type: 'setMethod', method: action.method }),
        undo: { drafts: state.drafts, hierarchies: state.hierarchies },
        drafts: action.drafts,
        comparison: action.comparison,
        step: 'risk',
      };
  }
}
