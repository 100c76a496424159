import type { OpenedFile, Report, RunStatus } from '../../common/ipc/api.js';
import { named, own, withName } from './names.js';

export type Role = 'identifier' | 'quasi' | 'sensitive' | 'insensitive';
export type MethodType = 'uniform-perturbation' | 'reconstruction-privacy' | 'beta-privacy' | 'safe-k-anonymity' | 'partitioned-recoding' | 'dp-counts';

export interface HierarchyChoice {
  readonly kind: 'none' | 'file' | 'interval' | 'masking';
  readonly file: string;
  /** Comma-separated interval widths, e.g. "5, 10, 20". */
  readonly widths: string;
  readonly length: number;
  readonly level: number;
}
export type Bound = 'simplified' | 'full';

export const STEPS = [
  { id: 'open', title: 'Open' },
  { id: 'columns', title: 'Columns' },
  { id: 'method', title: 'Method' },
  { id: 'parameters', title: 'Parameters' },
  { id: 'risk', title: 'Risk preview' },
  { id: 'run', title: 'Run' },
  { id: 'results', title: 'Results' },
  { id: 'export', title: 'Export' },
] as const;

export type StepId = (typeof STEPS)[number]['id'];

export interface FileOptionsState {
  /** '' = detect. */
  readonly delimiter: string;
  readonly encoding: string;
  /** Comma-separated tokens read as missing. */
  readonly missing: string;
  readonly sheet: string;
}

export interface WizardState {
  readonly step: StepId;
  readonly inputPath: string;
  readonly fileOptions: FileOptionsState;
  readonly file?: OpenedFile;
  readonly roles: Readonly<Record<string, Role>>;
  readonly method: MethodType;
  readonly up: { readonly mode: 'retention' | 'rho'; readonly retention: number; readonly rho1: number; readonly rho2: number; readonly epsilon: number; readonly delta: number; readonly bound: Bound };
  readonly rp: { readonly retention: number; readonly epsilon: number; readonly delta: number; readonly bound: Bound; readonly strict: boolean };
  readonly beta: {
    readonly mode: 'coefficient' | 'values';
    readonly coefficient: number;
    readonly defaultBeta: string;
    readonly overrides: Readonly<Record<string, string>>;
    readonly algorithm: 'multi-size' | 'two-size' | 'anatomy';
    readonly maxBucket: number;
    readonly fakeValues: number;
  };
  readonly kanon: {
    readonly k: number;
    readonly sampling: number;
    /** Which parameter the solver chooses from the target, if any. */
    readonly solve: 'none' | 'k' | 'sampling';
    readonly useTarget: boolean;
    readonly targetEpsilon: number;
    readonly targetDelta: number;
    /** Choose the levels with the exponential mechanism instead of fixing them. */
    readonly search: boolean;
    readonly searchEpsilon: number;
    /** λ of the search score: 0 favours released records, 1 detail. */
    readonly searchLossWeight: number;
    readonly searchStrategy: 'lattice' | 'path';
  };
  readonly partition: { readonly parts: number; readonly model: 'k-anonymity' | 'l-diversity' | 't-closeness'; readonly k: number; readonly l: number; readonly t: number };
  readonly hierarchies: Readonly<Record<string, HierarchyChoice>>;
  readonly dp: {
    readonly epsilon: number;
    readonly columns: readonly string[];
    readonly noise: 'laplace' | 'generalized-laplace';
    readonly correlation: 'none' | 'ar1' | 'groupBy';
    readonly rho: number;
    readonly groupBy: string;
    readonly seriesBy: string;
    readonly iteration: 'keep' | 'refresh';
    readonly parts: number;
    /** Public values per column, as typed (comma or line separated); empty: the values in the data. */
    readonly domains: Readonly<Record<string, string>>;
  };
  readonly output: {
    readonly dir: string;
    readonly csv: boolean;
    readonly xlsx: boolean;
    readonly html: boolean;
    readonly pdf: boolean;
    /** Where the confidential internal report goes; empty: beside the release, named after it with “-internal”. */
    readonly internalDir: string;
  };
  readonly run?: { readonly id: string; readonly status: RunStatus };
  /**
   * The fixed generalization levels a risk preview of this file was shown for. Levels changed
   * after it were chosen by looking at the data, which the DP theorem does not cover.
   */
  readonly previewedLevels?: { readonly path: string; readonly levels: string };
  readonly report?: Report;
}

export const initialState: WizardState = {
  step: 'open',
  inputPath: '',
  fileOptions: { delimiter: '', encoding: '', missing: ', ?', sheet: '' },
  roles: named(),
  method: 'reconstruction-privacy',
  up: { mode: 'retention', retention: 0.5, rho1: 0.1, rho2: 0.5, epsilon: 0.5, delta: 0.3, bound: 'simplified' },
  rp: { retention: 0.5, epsilon: 0.5, delta: 0.3, bound: 'simplified', strict: true },
  beta: { mode: 'coefficient', coefficient: 8, defaultBeta: '0.3', overrides: named(), algorithm: 'multi-size', maxBucket: 500, fakeValues: 0 },
  kanon: { k: 5, sampling: 0.1, solve: 'none', useTarget: false, targetEpsilon: 1, targetDelta: 1e-6, search: false, searchEpsilon: 0.1, searchLossWeight: 0.6, searchStrategy: 'lattice' },
  partition: { parts: 1, model: 'k-anonymity', k: 5, l: 2, t: 0.2 },
  hierarchies: named(),
  dp: { epsilon: 1, columns: [], noise: 'laplace', correlation: 'none', rho: 0.5, groupBy: '', seriesBy: '', iteration: 'keep', parts: 1, domains: named() },
  output: { dir: '', csv: true, xlsx: true, html: true, pdf: true, internalDir: '' },
};

export const NO_HIERARCHY: HierarchyChoice = { kind: 'none', file: '', widths: '10, 20', length: 5, level: 0 };

/** The parameter and output sections, each updated by merging a partial patch. */
type Section = 'up' | 'rp' | 'beta' | 'output' | 'kanon' | 'partition' | 'dp';
type PatchAction = { [S in Section]: { type: 'patch'; section: S; patch: Partial<WizardState[S]> } }[Section];

export type Action =
  | { type: 'go'; step: StepId }
  | { type: 'setInputPath'; path: string }
  | { type: 'setFileOptions'; options: Partial<FileOptionsState> }
  | { type: 'opened'; file: OpenedFile }
  | { type: 'setRole'; column: string; role: Role }
  | { type: 'setRoles'; roles: Readonly<Record<string, Role>> }
  | { type: 'setMethod'; method: MethodType }
  | PatchAction
  | { type: 'setHierarchy'; column: string; patch: Partial<HierarchyChoice> }
  | { type: 'runStarted'; id: string }
  | { type: 'runStatus'; status: RunStatus }
  | { type: 'load'; state: WizardState }
  | { type: 'previewed'; path: string; levels: string };

/** Release folder next to the input: "<folder>/<name>-release". */
export function defaultOutDir(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const folder = cut >= 0 ? path.slice(0, cut) : '.';
  const name = path.slice(cut + 1).replace(/\.[^.]+$/, '');
  return `${folder}${cut >= 0 ? path[cut] : '/'}${name}-release`;
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
      // Keep roles the user already chose for columns that still exist; new columns start as quasi-identifiers.
      const roles = named(action.file.columns.map((c): [string, Role] => [c.name, own(state.roles, c.name) ?? 'quasi']));
      const sameFile = state.file?.path === action.file.path;
      return {
        ...state,
        file: action.file,
        inputPath: action.file.path,
        roles,
        output: { ...state.output, dir: sameFile && state.output.dir ? state.output.dir : defaultOutDir(action.file.path) },
      };
    }
    case 'setRole':
      return { ...state, roles: withName(state.roles, action.column, action.role) };
    case 'setRoles':
      return { ...state, roles: named(state.roles, action.roles) };
    case 'setMethod':
      return { ...state, method: action.method };
    case 'patch':
      return { ...state, [action.section]: { ...state[action.section], ...action.patch } };
    case 'setHierarchy':
      return { ...state, hierarchies: withName(state.hierarchies, action.column, { ...(own(state.hierarchies, action.column) ?? NO_HIERARCHY), ...action.patch }) };
    case 'previewed':
      // The first preview of a file is kept: a later preview of changed levels must not make them look unchosen.
      return state.previewedLevels?.path === action.path ? state : { ...state, previewedLevels: { path: action.path, levels: action.levels } };
    case 'runStarted':
      return { ...state, run: { id: action.id, status: { id: action.id, state: 'running', fraction: 0 } } };
    case 'runStatus':
      return {
        ...state,
        run: { id: action.status.id, status: action.status },
        ...(action.status.state === 'done' && action.status.report ? { report: action.status.report } : {}),
      };
    case 'load':
      return action.state;
  }
}
