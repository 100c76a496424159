import type { z } from 'zod';
import type { ColumnInfo } from './ipc/api.js';
import type { Report, ReportSectionName } from './report/report-model.js';
import type { ReportView } from './report/view-model.js';

/**
 * What a mechanism says about itself, in plain words, for the wizard's method
 * cards, the report and the README. One record per mechanism, beside its schema.
 */
export interface MechanismMetadata {
  /** The job's method.type: also the mechanism's folder name and its key in the wizard and the registries. */
  readonly type: string;
  /**
   * Other names a custodian may type for this method (the model it implements, the paper's term),
   * normalized as `normalizeMethodName` of method-names.ts does; `--method` and `method.type` answer
   * one of them with "did you mean TYPE?". No two mechanisms share an alias.
   */
  readonly aliases: readonly string[];
  /** The report's title for the method. */
  readonly title: string;
  /** The method card's title. */
  readonly cardTitle: string;
  readonly protects: string;
  readonly costs: string;
  /** The guarantee in one sentence, as the method card states it. */
  readonly guarantee: string;
  /** Differential privacy: an exact statistic of the input (its size) is outside the guarantee and never published. */
  readonly differentiallyPrivate: boolean;
  /** Which sensitive columns the mechanism needs: exactly one, at least one, or none (it protects identities). */
  readonly sensitiveColumns: 'one' | 'some' | 'none';
  /** The source, by authors, title and year. */
  readonly source: string;
  /** The report sections the mechanism adds (their schemas are in the report model). */
  readonly reportSections: readonly ReportSectionName[];
  /**
   * What the method assumes the attacker knows, and what it protects, in one sentence the disclosure
   * review states ({sensitive}: the job's sensitive columns).
   */
  readonly attackerKnowledge: string;
  /**
   * How the release carries a sensitive column: 'as-collected' (its values as read, beside the
   * quasi-identifiers: the review counts its rare and homogeneous values) or 'protected' (perturbed,
   * bucketized or not released as records).
   */
  readonly sensitiveRelease: 'as-collected' | 'protected';
  /**
   * The wizard's name of a key of this method's object where the shared name would mislead ("columns":
   * "the columns to count"), for the messages that name a field (src/renderer/components/plain-messages.ts).
   * Empty when the shared names fit.
   */
  readonly fieldNames: Readonly<Record<string, string>>;
  /** What it protects and why a custodian would choose it: the wizard's Method step recommends from this (src/renderer/state/method-goal.ts). */
  readonly recommendation: MethodRecommendation;
  /** How the reports set and word its figures beside the shared ones (src/common/report/key-figures.ts, the external variant, the risk preview). */
  readonly reportFigures: ReportFigures;
}

/** What the shared parts of the reports need to know of a mechanism's figures. */
export interface ReportFigures {
  /**
   * The count queries its report's utility figure averages: each fixes a sensitive value
   * (… ∧ SA = x: the randomized methods, β-privacy), or asks the quasi-identifiers only.
   */
  readonly utilityQueries: 'sensitive-value' | 'quasi-identifier';
  /**
   * Its release is plain perturbation (uniform randomized response), the baseline the reports set
   * other releases beside: its error is not set beside itself.
   */
  readonly releaseIsPlainPerturbation: boolean;
  /**
   * The (ε,δ) reconstruction test on the release is the guarantee it claims: the test's outcome on
   * the release is published in the external report, and the reports and the risk preview set the
   * release beside plain perturbation. Otherwise that outcome is a figure of the true data (internal).
   */
  readonly releaseMeetsReconstructionTest: boolean;
}

/**
 * A method as the Method step's goal questions see it. Beside `guards`, the step reads the metadata it
 * already has: `differentiallyPrivate` (the guarantee holds whatever else the attacker knows, for every
 * value of a person's record), `compare.releasesRecords` (records or tables) and `chain` (which step of
 * "protect identity, then the sensitive value" it can be).
 */
export interface MethodRecommendation {
  /**
   * What the release is protected from:
   * - 'identity': finding a person's record (the quasi-identifiers generalized, aggregated or sampled;
   *   the sensitive columns published as collected);
   * - 'attribute': learning the sensitive value of a person the attacker already identifies (the
   *   quasi-identifiers published as collected);
   * - 'counts': it publishes tables of counts, no records.
   */
  readonly guards: 'identity' | 'attribute' | 'counts';
  /** Why it meets that goal, in the custodian's words: one sentence, the step's reason for recommending it. */
  readonly reason: string;
  /**
   * The case it suits, when it is not the general choice for its goal ("the quasi-identifiers are
   * numbers…"): recommended after the general ones, with this said.
   */
  readonly bestWhen?: string;
}

/**
 * A mechanism's environment-free part: its parameter schema (the job's
 * `method` object), the checks that span several parameters, and its metadata.
 * The renderer, the job loader and verify all use this one definition.
 */
export interface MechanismDefinition<S extends z.ZodObject<z.ZodRawShape> = z.ZodObject<z.ZodRawShape>> {
  readonly metadata: MechanismMetadata;
  readonly schema: S;
  /**
   * A method to start from where the schema has no default (retention, k…): the wizard's first
   * draft is the schema's parse of it, so every default is written once, in the schema.
   */
  readonly suggested: z.input<S>;
  /** Checks that involve several parameters (zod's discriminated union takes plain objects only). */
  readonly refine?: (method: z.output<S>, ctx: z.RefinementCtx) => void;
  /** The mechanism generalizes quasi-identifiers with hierarchies (`method.hierarchies`, the wizard's shared hierarchy table). */
  readonly recodes: boolean;
  /** How `custos compare` and the wizard's Compare step put it beside the others (compare.ts in its folder). */
  readonly compare: MechanismComparison;
  /** Which step of a chain (`"method": [identity step, attribute step]`) it can be, or why none (src/mechanisms/chain.ts). */
  readonly chain: ChainStep<z.output<S>>;
  /**
   * Its part of a report as plain data (report-view.ts in its folder): the HTML report, the PDF and
   * the wizard draw it with generic renderers (src/common/report/view-model.ts).
   */
  readonly reportView: (report: Report) => ReportView;
  /**
   * Whose values the release shows, so whose domain a job must declare (`method.domains`): the
   * sensitive columns, the method's own `method.columns`, or none.
   */
  readonly domainsOf: 'sensitive' | 'method-columns' | 'none';
  /** The method's own columns a new job (`custos init`) starts with, chosen from the file; absent when it has none. */
  readonly startingColumns?: (columns: readonly ColumnInfo[], isIdentifier: (name: string) => boolean) => StartingColumns;
}

/** The columns a new job names in `method.columns` (undefined: none fit, the schema's default stands), and the note that says how they were chosen. */
export interface StartingColumns {
  readonly columns: readonly string[] | undefined;
  readonly note: string;
}

/**
 * A mechanism's place in a chain of two methods, the second run on the first's release:
 * - `identity`: protects identity on the quasi-identifiers and publishes the sensitive columns as
 *   collected; `namedColumns` lists the columns its parameters name to change besides the
 *   quasi-identifiers by role, each with its key (a sensitive one among them is refused: the
 *   attribute step would protect a value the first step already changed), and `sensitiveModels` its
 *   models of the sensitive values within a class (refused: the attribute step publishes them otherwise);
 * - `attribute`: protects the sensitive column of the records it is given, keeping every record
 *   and its quasi-identifiers, so the identity step's property holds for the released file too;
 * - `alone`: neither, for the reason stated (after the method's title).
 */
export type ChainStep<M = never> =
  | {
      readonly role: 'identity';
      readonly namedColumns: (method: M) => readonly { readonly key: string; readonly column: string }[];
      /**
       * Its parameters that constrain the sensitive values within a class (ℓ-diversity, t-closeness, β-likeness, δ-disclosure), each with
       * its key and name: refused in a chain, whose second step publishes the sensitive value otherwise.
       */
      readonly sensitiveModels: (method: M) => readonly { readonly key: string; readonly model: string }[];
    }
  | { readonly role: 'attribute' }
  | { readonly role: 'alone'; readonly why: string };

/** Any mechanism's definition, for registries: a refine of a particular method type fits `never`. */
export interface AnyMechanismDefinition {
  readonly metadata: MechanismMetadata;
  readonly schema: z.AnyZodObject;
  readonly suggested: Readonly<Record<string, unknown>>;
  readonly refine?: (method: never, ctx: z.RefinementCtx) => void;
  readonly recodes: boolean;
  readonly compare: MechanismComparison;
  readonly domainsOf: 'sensitive' | 'method-columns' | 'none';
  readonly startingColumns?: (columns: readonly ColumnInfo[], isIdentifier: (name: string) => boolean) => StartingColumns;
  readonly chain: ChainStep;
  readonly reportView: (report: Report) => ReportView;
}

/** A method object as the wizard and a grid build it, before parsing. */
export type MethodObject = Readonly<Record<string, unknown>>;

/** The one parameter the Compare step varies for a mechanism, and how a value of it goes into the method object. */
export interface CompareAxis {
  /** The parameter in words, as the table and the labels say it. */
  readonly words: string;
  /** The grid key as `custos compare --grid` names it. */
  readonly key: string;
  /** The values the step starts with. */
  readonly suggested: string;
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
  /** Ticked when the step opens (besides the current method). */
  readonly includedByDefault: boolean;
  apply(method: MethodObject, value: number): MethodObject;
}

/**
 * How a mechanism is compared: a release of records is measured against the common pool of count
 * queries and its own attack (the Node part, `NodeMechanism.compare`, counts that attack); a
 * release of other things (answers) is not a candidate, for the reason it states.
 */
export type MechanismComparison = RecordComparison | NotCompared;

export interface RecordComparison {
  readonly releasesRecords: true;
  readonly axis: CompareAxis;
  /** How the common pool reads its release, in words ("generalized values spread uniformly over …"). */
  readonly estimator: string;
  /** The formal guarantee as a short label, before any "does not hold" ("(ε = 1, δ = 1.00e-5)-DP"). */
  guaranteeLabel(report: Pick<Report, 'method' | 'guarantee'>): string;
}

export interface NotCompared {
  readonly releasesRecords: false;
  /** Why compare cannot measure it, after its name ("releases noisy answers, not records"). */
  readonly why: string;
}

/** The label of a guarantee the report names well enough on its own. */
export const byGuaranteeName = (report: Pick<Report, 'guarantee'>): string => report.guarantee.name;
