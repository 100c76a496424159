/**
 * The report model (schema custos.report/1): report.json is this object, and
 * every rendering (HTML now, PDF and workbook sheets later) is drawn from it.
 */
import type { ReidentificationRisk } from '../risk/reidentification.js';

export const REPORT_SCHEMA = 'custos.report/1';

/** Printed on every page and sheet of an internal report, and searched for by verify's publishability check. */
export const CONFIDENTIAL_MARK = 'CONFIDENTIAL: internal report on the confidential input. Do not publish.';

export type ReportVariant = 'internal' | 'external';

export interface ColumnReport {
  readonly name: string;
  readonly role: 'identifier' | 'quasi' | 'sensitive' | 'insensitive';
  /** True when the role came from the default (not named in the job). */
  readonly defaulted: boolean;
  readonly type: string;
  /** Internal variant only: counts of the confidential data. */
  readonly distinct?: number;
  readonly missing?: number;
}

/**
 * The input as the report describes it. The external variant keeps only the
 * format and the columns' names, roles and types: the path, size, hash and
 * every count are facts of the confidential file that no guarantee covers
 * (the hash is a membership oracle for anyone holding a candidate file).
 */
export interface InputReport {
  readonly format: 'csv' | 'xlsx';
  readonly columns: readonly ColumnReport[];
  readonly path?: string;
  readonly sha256?: string;
  readonly bytes?: number;
  readonly rows?: number;
  readonly encoding?: string;
  readonly delimiter?: string;
  readonly sheet?: string;
  readonly rejectedRows?: number;
  readonly rejectedRowLines?: readonly number[];
}

export interface RiskyGroup {
  /** The group's non-sensitive values (internal variant only). */
  readonly values: Readonly<Record<string, string>>;
  readonly size: number;
  readonly value: string;
  readonly trueFrequency: number;
  readonly globalFrequency: number;
  readonly sizeThreshold: number;
  readonly passesBefore: boolean;
  /** Adversary's raw MLE F' of the value from the plain-perturbation release. */
  readonly estimateBefore: number;
  /** Adversary's raw MLE F' from this release (reconstruction privacy), when it exists. */
  readonly estimateAfter?: number;
  readonly trialsAfter?: number;
}

export interface SensitiveReport {
  readonly column: string;
  readonly domainSize: number;
  readonly domainDeclared: boolean;
  readonly retention: number;
  readonly retentionExact: string;
  readonly microGroups: number;
  /** Facts of the input before protection: internal variant only (absent in the external one). */
  readonly violatingBefore?: number;
  readonly violatingRowsBefore?: number;
  readonly violatingAfter: number;
  readonly largestValidEpsilon?: number;
  readonly unprotectableGroups?: number;
  readonly sampledGroups?: number;
  readonly suppressedGroups?: number;
  readonly suppressedRows?: number;
  readonly trimmedRows?: number;
  readonly relativeError: { readonly uniformPerturbation?: number; readonly reconstructionPrivacy?: number };
  readonly queries: number;
  readonly queryAttempts: number;
  readonly riskiestGroups?: readonly RiskyGroup[];
  /** Internal view: each value's true frequency and its reconstruction (MLE) from the whole release. */
  readonly distribution?: readonly { readonly value: string; readonly original: number; readonly reconstructed: number }[];
  /** ρ2 reached for a few priors ρ1 at this retention (uniform perturbation's guarantee). */
  readonly rhoCurve: readonly { readonly rho1: number; readonly rho2: number }[];
  readonly releaseFile?: string;
}

export interface RelativeErrors {
  readonly release?: number;
  readonly uniformPerturbation?: number;
  readonly reconstructionPrivacy?: number;
  readonly anatomy?: number;
}

export interface InferenceBound {
  readonly value: number;
  readonly count: number;
  readonly size: number;
  readonly beta: number;
  readonly betaExact: string;
  readonly holds: boolean;
}

export interface BetaValueReport {
  readonly value: string;
  /** The value's count and frequency in the input: internal variant only. */
  readonly count?: number;
  readonly frequency?: number;
  readonly beta: number;
  readonly betaExact: string;
  readonly feasible: boolean;
}

export interface BucketSettingReport {
  readonly algorithm: string;
  readonly sizes: Readonly<Record<string, number>>;
  readonly loss: number;
  readonly mse: number;
  readonly feasible: boolean;
  readonly note?: string;
}

export interface BetaReport {
  readonly sensitive: string;
  readonly values: readonly BetaValueReport[];
  readonly sizeRange: { readonly min: number; readonly max: number };
  readonly chosen: BucketSettingReport;
  readonly twoSize?: BucketSettingReport;
  readonly multiSize?: BucketSettingReport & { readonly calls: number; readonly depth: number };
  readonly anatomy: BucketSettingReport & { readonly l: number };
  readonly fakeValues: number;
  /** Corruption attack: worst posterior after c corrupted rows, with and without the fakes. */
  readonly corruption?: readonly { readonly corrupted: number; readonly withoutFakes: number; readonly withFakes: number }[];
}

export interface AnonymityReport {
  readonly k?: number;
  readonly sampling?: number;
  readonly samplingExact?: string;
  /** How k or β was chosen when the job asked the solver. */
  readonly choice?: string;
  readonly neighbours: string;
  readonly curve?: readonly { readonly epsilon: number; readonly delta: number }[];
  readonly columns: readonly { readonly name: string; readonly level: number; readonly depth: number; readonly hierarchy: string; readonly example?: string }[];
  readonly sampled?: number;
  readonly model?: string;
  /** suppressed: internal variant only. */
  readonly parts?: readonly { readonly part: number; readonly size: number; readonly released: number; readonly classes: number; readonly worst: number; readonly suppressed?: number }[];
  readonly epsilonPrime?: readonly { readonly epsilon: number; readonly epsilonPrime: number; readonly reported: number }[];
}

export interface DpReport {
  readonly queries: number;
  /** Distinct queries after caching repeats: one noise draw each. */
  readonly distinctQueries: number;
  readonly sensitivity: number;
  readonly sensitivityRule: string;
  /** Noise scale b of every answer. */
  readonly scale: number;
  readonly noise: string;
  readonly grid?: string;
  readonly correlation: string;
  readonly epsilonPerAnswer: number;
  /** Correlated noise: ε_eff = √(ΔᵀR⁻¹Δ)/b for the worst one-person change found. */
  readonly epsilonEffective?: number;
  /** Filtering attack per series: gain G = MSE_shrink/MSE_filtered and noise removal NR = 1 − MSE_filtered/MSE_raw, for IID Laplace and for this release. */
  readonly filtering?: readonly { readonly series: string; readonly length: number; readonly halfWidth: number; readonly gainIid: number; readonly gainRelease: number; readonly removalIid: number; readonly removalRelease: number; readonly mseRaw: number; readonly mseFiltered: number }[];
  readonly inference?: readonly { readonly group: string; readonly value: string; readonly o1: number; readonly o2: number; readonly f: number; readonly meanApprox: number; readonly sdApprox: number; readonly pAbove: number; readonly pBelow: number; readonly attackEpsilon: number }[];
  readonly epsilonPrime?: readonly { readonly epsilon: number; readonly epsilonPrime: number; readonly reported: number }[];
  readonly parts: number;
}

export interface BucketReport {
  readonly count: number;
  /** Bucket size → number of buckets. */
  readonly sizes: Readonly<Record<string, number>>;
}

export interface OutputFile {
  readonly name: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly rows?: number;
}

export interface Report {
  readonly schema: typeof REPORT_SCHEMA;
  readonly kind: 'assessment' | 'release';
  readonly variant: ReportVariant;
  readonly createdAt: string;
  readonly software: { readonly name: 'custos'; readonly version: string; readonly node: string; readonly platform: string };
  readonly testRandomness: boolean;
  readonly notice?: string;
  /** The internal variant's CONFIDENTIAL mark, so the JSON carries it as every page and sheet does. */
  readonly confidential?: string;
  readonly summary: readonly string[];
  readonly job: unknown;
  readonly input: InputReport;
  readonly method: {
    readonly type: string;
    readonly title: string;
    readonly parameters: Readonly<Record<string, string | number | boolean>>;
    readonly derived: Readonly<Record<string, string | number>>;
    /** Values computed from the confidential data outside the guarantee; the external variant leaves them out. */
    readonly internal?: Readonly<Record<string, number>>;
  };
  readonly guarantee: {
    readonly name: string;
    readonly statement: string;
    readonly formula: string;
    readonly source: string;
    readonly holds: boolean;
    readonly epsilon?: number;
    readonly delta?: number;
    readonly rho?: { readonly rho1: number; readonly rho2: number };
    /** β-privacy: per value the largest count/size over all buckets, which must be ≤ β_v. */
    readonly maxInference?: Readonly<Record<string, InferenceBound>>;
  };
  readonly risk: {
    readonly adversary: string;
    /** Randomized-response methods: micro groups and the (ε,δ) test before and after. */
    readonly microGroups?: number;
    readonly violatingBefore?: number;
    readonly violatingAfter?: number;
    readonly bySensitive?: readonly SensitiveReport[];
    /** k-anonymity methods: released equivalence classes (identical released tuples) and the smallest. */
    readonly classes?: number;
    readonly minClassSize?: number;
    /** Identity disclosure on the quasi-identifiers (ARX / sdcMicro measures). */
    readonly reidentification?: {
      readonly quasiIdentifiers: readonly string[];
      readonly population: string;
      /** Internal variant only: the input's own classes. */
      readonly original?: ReidentificationRisk;
      readonly release: ReidentificationRisk;
    };
  };
  readonly utility: {
    /** Mean relative error of the count-query pool: `release` for this release, other keys for baselines. */
    readonly relativeError: RelativeErrors;
    readonly queryPool: string;
    readonly loss?: number;
    readonly mse?: number;
    /** Generalization loss of the released cells, 0 (as collected) … 1 (fully generalized). */
    readonly generalizationLoss?: number;
    readonly lossFunction?: string;
  };
  readonly buckets?: BucketReport;
  readonly beta?: BetaReport;
  readonly anonymity?: AnonymityReport;
  readonly dp?: DpReport;
  readonly output?: {
    readonly dir: string;
    readonly rows: number;
    /** Internal only: records deleted with their class (not covered by the DP theorem). */
    readonly suppressed?: number;
    readonly files: readonly OutputFile[];
  };
  readonly warnings: readonly string[];
}
