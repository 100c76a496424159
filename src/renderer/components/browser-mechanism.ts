import type { ReactElement } from 'react';
import type { z } from 'zod';
import type { ColumnInfo, OpenedFile } from '../../common/ipc/api.js';
import type { Role } from '../../common/job/job-parts.js';
import type { Named } from '../../common/job/names.js';
import type { AnyMechanismDefinition } from '../../common/mechanism.js';
import type { RecodingChoice } from './recoding.js';
import type { LevelEntry } from './recoding-lattice.js';

/** What a mechanism's form and checks may know of the wizard: the opened file and the roles. */
export interface WizardContext {
  readonly file: OpenedFile;
  readonly roles: Named<Role>;
  /** The columns marked sensitive, in file order. */
  readonly sensitive: readonly ColumnInfo[];
  /** The per-column generalization the recoding mechanisms share (the hierarchy table). */
  readonly recoding: RecodingChoice;
}

/** Problems that block the run, keyed by the field they belong to (shown next to it). */
export type Problems = Readonly<Record<string, string>>;

export interface FormProps<D> {
  readonly draft: D;
  readonly set: (patch: Partial<D>) => void;
  readonly context: WizardContext;
  readonly problems: Problems;
  /** The shared hierarchy table, for the mechanisms that recode. */
  readonly recodingTable: ReactElement | null;
  /** Fixed levels changed after a risk preview of this file (the DP theorem does not cover them). */
  readonly levelsChangedAfterPreview: boolean;
}

/**
 * A mechanism's wizard part. D is the draft: the values of its form as the
 * person types them. The job's method object is built from it and validated
 * with the mechanism's own zod schema (definition.ts), so the wizard holds no
 * copy of the job's rules or defaults: `initial` is the schema's parse of the
 * mechanism's suggested method.
 */
export interface BrowserMechanism<S, D> {
  readonly definition: AnyMechanismDefinition;
  /** The draft of a job method that parsed (a saved job, or the suggested start). */
  fromMethod(method: S): D;
  /** The job's method object (before parsing: the schema applies its defaults). */
  /** `roles`, when given, lets a method keep only settings of the columns that still have their role (a domain per sensitive column). */
  toMethod(draft: D, context: Pick<WizardContext, 'recoding'> & Partial<Pick<WizardContext, 'roles'>>): z.input<AnyMechanismDefinition['schema']>;
  /** Checks against the data that the schema cannot make (ε beyond ε_max of a column, an infeasible β). */
  dataProblems(draft: D, context: WizardContext): Problems;
  /**
   * Problems in the form's own units, said before the job schema's (a percentage field is
   * checked as 0–100 %, where the job holds a share in [0, 1]).
   */
  formProblems?(draft: D): Problems;
  /** Which sensitive columns the mechanism needs: one, at least one, or none. */
  readonly sensitive: 'one' | 'some' | 'none';
  /** The mechanism generalizes columns with the shared hierarchy table. */
  readonly recodes: boolean;
  /**
   * The roles whose columns the hierarchy table lists and whose hierarchies the job keeps (global
   * recoding: the quasi-identifiers, and the sensitive column for hierarchical t-closeness).
   * Without it, every column not dropped as an identifier.
   */
  recodedRoles?(draft: D): readonly Role[];
  /** The levels are chosen by the mechanism itself (a private search), not typed in the table. */
  levelsSearched?(draft: D): boolean;
  /**
   * The levels the hierarchy table shows for a job's method: its fixed `method.levels`, or 'search'
   * when the table fixes none (the mechanism searches them; global recoding keeps its own level bounds
   * in its form). Null exactly when it does not recode.
   */
  readonly tableLevels: ((method: S) => Named<number> | 'search') | null;
  /**
   * How a choice on the risk preview's lattice (recoding-lattice.tsx: another suppression limit from
   * the frontier, columns kept at levels) changes its draft; null when its report draws no lattice.
   */
  readonly latticeChoice: LatticeChoice<D> | null;
  /**
   * The draft a method object fills (`next`, from `fromMethod`), keeping from the form as it was
   * (`previous`) what that object does not state: β-privacy's per-value thresholds when a candidate
   * of the Compare step sets a coefficient. Without it, `next` as it is.
   */
  carryOver?(previous: D, next: D): D;
  /** Map a schema issue's path to the field it belongs to ("target.epsilon" → "targetEpsilon"). */
  fieldOf?(path: readonly (string | number)[]): string;
  Form(props: FormProps<D>): ReactElement;
}

/** A mechanism's draft changed by a choice on the risk preview's lattice of levels. */
export interface LatticeChoice<D> {
  /** Another suppression limit (a share of the records) from the frontier. */
  suppressionLimit(limit: number): Partial<D>;
  /** Columns kept at levels, or one transformation named (the job's method.levels). */
  levels(levels: Named<LevelEntry>): Partial<D>;
}
