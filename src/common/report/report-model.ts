/**
 * The report model (schema custos.report/2) as a zod schema: report.json is
 * this object, and every rendering (HTML, PDF, workbook sheets, the wizard's
 * results) is drawn from it. One builder makes both variants: the internal
 * report (confidential: facts of the input) and the external one published in
 * the release, which is the same schema with every internal-only field left
 * out. Objects are strict, so an internal field in an external report is an
 * error that names it (verify's publishability check rests on this), and a
 * value the report hides is absent, never NaN or null.
 */
import { z } from 'zod';
import { nameRecord } from '../job/job-parts.js';
import { INPUT_FORMAT_NAMES } from '../input-formats.js';
import { analysisReport } from '../utility/analysis-model.js';

export const REPORT_SCHEMA = 'custos.report/2';
/**
 * The schema of reports written before 2026-11-28 (before statement.ts, the disclosure review and the
 * domain decision): verify writes every file again as Custos writes it now, so it names such a
 * release for what it is instead of failing it file by file.
 */
export const EARLIER_REPORT_SCHEMAS: readonly string[] = ['custos.report/1'];

/** Printed on every page and sheet of an internal report, and searched for by verify's publishability check. */
export const CONFIDENTIAL_MARK = 'CONFIDENTIAL: internal report on the confidential input. Do not publish.';

export type ReportVariant = 'internal' | 'external';

/** A finite number: NaN and infinities are not values a report states (a hidden value is absent). */
const num = z.number().finite();
const count = z.number().int().nonnegative();
const obj = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();
/**
 * Keys that only the internal variant has. Typed as present: the TypeScript shape of a report is the
 * internal one; the external schema lacks the keys, so its strict objects refuse them.
 */
const internalOnly = <T extends z.ZodRawShape>(internal: boolean, shape: T): T => (internal ? shape : ({} as T));
/** A field the external variant publishes empty, with the internal variant's type. */
const emptyWhenExternal = <T extends z.ZodTypeAny>(internal: boolean, schema: T, empty: z.ZodTypeAny): T => (internal ? schema : (empty as unknown as T));

const reidentificationRisk = obj({
  records: count,
  classes: count,
  sampleUniques: count,
  sampleUniqueShare: num,
  prosecutorHighest: num,
  prosecutorAverage: num,
  recordsAtHighestRisk: num,
  /** An upper bound of the journalist's risk, 1 / smallest class (the population holds at least the class's records). */
  journalistHighest: num,
  /**
   * With a population (sampling fraction π): estimates, not bounds, of the journalist's risk if a
   * class of f records stood for its expected f / π people (uniform sampling): π / smallest class
   * and π · classes / records. A sample unique may be unique in the population.
   */
  journalistEstimateHighest: num.optional(),
  journalistEstimateAverage: num.optional(),
  marketerAverage: num,
});

const bin = obj({ from: num, to: num, records: count });
const populationFigure = { populationUniques: num.optional(), populationUniqueShare: num.optional() };
/**
 * Every risk figure of the quasi-identifiers (src/common/risk/risk-profile.ts), internal only: of the
 * input in an assessment, of the released records in a run. Figures a model has no solution for, and
 * parts skipped (with the reason), are absent.
 */
const riskProfileReport = obj({
  basis: z.enum(['input', 'release']),
  quasiIdentifiers: z.array(z.string()),
  records: count,
  classes: count,
  sampleUniques: count,
  population: obj({
    fraction: num,
    size: count,
    estimates: z.array(obj({ model: z.enum(['pitman', 'zayatz', 'snb']), ...populationFigure })),
    dankar: obj({ model: z.enum(['pitman', 'zayatz', 'snb', 'none']), ...populationFigure }),
  }).optional(),
  kMap: obj({ k: num, highest: num, average: num, recordsAtHighest: num }).optional(),
  individual: z.union([
    obj({
      basis: z.enum(['weights', 'sampling-fraction', 'population']),
      weightColumn: z.string().optional(),
      highest: num,
      expectedReidentifications: num,
      globalRisk: num,
      histogram: z.array(bin),
      riskiest: z.array(obj({ record: count, values: z.array(z.string()), classSize: num, weightSum: num, risk: num })),
    }),
    obj({ skipped: z.string() }),
  ]),
  suda: z.union([
    obj({
      maxSize: count,
      attributes: count,
      specialUniques: count,
      recordsWithMsu: count,
      msusBySize: z.array(count),
      highestScore: num,
      scoreHistogram: z.array(bin),
      disHighest: num,
      disAbove: z.array(obj({ threshold: num, records: count })),
      attributeContributions: z.array(num),
    }),
    obj({ skipped: z.string() }),
  ]),
});

function columnReport(internal: boolean) {
  return obj({
    name: z.string(),
    role: z.enum(['identifier', 'quasi', 'sensitive', 'insensitive']),
    /** True when the role came from the default (not named in the job). */
    defaulted: z.boolean(),
    /** Inferred from every value: one record can change it, so a DP method's published report leaves it out. */
    type: internal ? z.string() : z.string().optional(),
    ...internalOnly(internal, { distinct: count.optional(), missing: count.optional() }),
  });
}

/**
 * The input as the report describes it. The external variant keeps only the
 * format and the columns' names, roles and types: the path, size, hash and
 * every count are facts of the confidential file that no guarantee covers
 * (the hash is a membership oracle for anyone holding a candidate file).
 */
function inputReport(internal: boolean) {
  return obj({
    format: z.enum(INPUT_FORMAT_NAMES),
    columns: z.array(columnReport(internal)),
    encoding: z.string().optional(),
    delimiter: z.string().optional(),
    ...internalOnly(internal, {
      path: z.string().optional(),
      sha256: z.string().optional(),
      bytes: count.optional(),
      rows: count.optional(),
      sheet: z.string().optional(),
      rejectedRows: count.optional(),
      rejectedRowLines: z.array(count).optional(),
      /** Records dropped because a sensitive value was missing. */
      excludedRows: count.optional(),
      /** Columns whose header name was empty or repeated, with the name they were read (and released) under. */
      renamedColumns: z.array(obj({ column: count, from: z.string(), to: z.string() })).optional(),
      /** What a statistical package's file said about its variables: labels, the codes its value labels replaced, declared missing values. */
      variables: z
        .array(
          obj({
            name: z.string(),
            label: z.string().optional(),
            valueLabels: z.array(obj({ code: z.string(), label: z.string() })),
            declaredMissing: count,
            weight: z.literal(true).optional(),
            dates: z.enum(['date', 'datetime']).optional(),
          }),
        )
        .optional(),
    }),
  });
}

const riskyGroup = obj({
  /** The group's non-sensitive values. */
  values: nameRecord(z.string()),
  size: count,
  value: z.string(),
  trueFrequency: num,
  globalFrequency: num,
  sizeThreshold: num,
  passesBefore: z.boolean(),
  /** Adversary's raw MLE F' of the value from the plain-perturbation release (absent when not measured). */
  estimateBefore: num.optional(),
  /** Adversary's raw MLE F' from this release (reconstruction privacy), when it exists. */
  estimateAfter: num.optional(),
  trialsAfter: count.optional(),
});

const relativeErrors = obj({
  release: num.optional(),
  uniformPerturbation: num.optional(),
  reconstructionPrivacy: num.optional(),
  anatomy: num.optional(),
});

/** One sensitive attribute of a randomized-response release. */
function sensitiveReport(internal: boolean) {
  return obj({
    column: z.string(),
    domainSize: count,
    domainDeclared: z.boolean(),
    retention: num,
    retentionExact: z.string(),
    microGroups: count,
    /** Micro groups failing the (ε,δ) test after the release: published only where that test is the guarantee (reconstruction privacy). */
    violatingAfter: count.optional(),
    /** Query errors compare the release with the confidential data: internal only. */
    relativeError: emptyWhenExternal(internal, obj({ uniformPerturbation: num.optional(), reconstructionPrivacy: num.optional() }), obj({})),
    /** ρ2 reached for a few priors ρ1 at this retention (uniform perturbation's guarantee). */
    rhoCurve: z.array(obj({ rho1: num, rho2: num })),
    releaseFile: z.string().optional(),
    ...internalOnly(internal, {
      /** The utility query pool: how many queries were kept of those drawn depends on the confidential counts. */
      queries: count.optional(),
      queryAttempts: count.optional(),
      violatingBefore: count.optional(),
      violatingRowsBefore: count.optional(),
      /** Records of the micro groups that fail the test after the release (reconstruction privacy). */
      violatingRowsAfter: count.optional(),
      largestValidEpsilon: num.optional(),
      unprotectableGroups: count.optional(),
      sampledGroups: count.optional(),
      suppressedGroups: count.optional(),
      suppressedRows: count.optional(),
      trimmedRows: count.optional(),
      riskiestGroups: z.array(riskyGroup).optional(),
      /** Each value's true frequency and its reconstruction (MLE) from the whole release. */
      distribution: z.array(obj({ value: z.string(), original: num, reconstructed: num.optional() })).optional(),
    }),
  });
}

/** β-privacy's bound per value: the worst bucket's true count and size are internal (they confirm real records of a value fake values were meant to hide). */
const inferenceBound = (internal: boolean) => obj({ beta: num, betaExact: z.string(), holds: z.boolean(), ...internalOnly(internal, { value: num, count: count, size: count }) });

const bucketSetting = {
  algorithm: z.string(),
  sizes: nameRecord(count),
  loss: num,
  mse: num,
  feasible: z.boolean(),
  note: z.string().optional(),
};

function betaReport(internal: boolean) {
  return obj({
    sensitive: z.string(),
    values: z.array(
      obj({
        value: z.string(),
        beta: num,
        betaExact: z.string(),
        feasible: z.boolean(),
        /** The value's count and frequency in the input. */
        ...internalOnly(internal, { count: count.optional(), frequency: num.optional() }),
      }),
    ),
    sizeRange: obj({ min: count, max: count }),
    chosen: obj(bucketSetting),
    fakeValues: count,
    /** Corruption attack: worst posterior after c corrupted rows, with and without the fakes. */
    corruption: z.array(obj({ corrupted: count, withoutFakes: num, withFakes: num })).optional(),
    /**
     * The baselines: the bucket settings the other algorithms would choose. Each is drawn from the true
     * value counts (Anatomy's groups: how many rounds of ℓ distinct values the counts allow, the
     * residues, whether some value is too frequent for ℓ-diversity), which ST's counts hide when fake
     * values are listed and which the β bound does not cover: internal only. The released setting is
     * `chosen` (QIT shows its bucket sizes).
     */
    ...internalOnly(internal, {
      anatomy: obj({ ...bucketSetting, l: count }).optional(),
      twoSize: obj(bucketSetting).optional(),
      multiSize: obj({ ...bucketSetting, calls: count, depth: count }).optional(),
    }),
  });
}

const bucketReport = obj({ count: count, sizes: nameRecord(count) });

const epsilonPrime = z.array(obj({ epsilon: num, epsilonPrime: num, reported: num }));

function anonymityReport(internal: boolean) {
  return obj({
    k: count.optional(),
    sampling: num.optional(),
    samplingExact: z.string().optional(),
    /** How k or β was chosen when the job asked the solver. */
    choice: z.string().optional(),
    neighbours: z.string(),
    curve: z.array(obj({ epsilon: num, delta: num })).optional(),
    /** suppressedCells: cells of the column that local suppression released as "*" (the release shows them). */
    columns: z.array(obj({ name: z.string(), level: count, depth: count, hierarchy: z.string(), example: z.string().optional(), suppressedCells: count.optional() })),
    model: z.string().optional(),
    /** Per part: its size and what was deleted give the input's size and suppressed counts away (size − released), so they are internal. */
    parts: z.array(obj({ part: count, released: count, classes: count, worst: num, ...internalOnly(internal, { size: count, suppressed: count.optional() }) })).optional(),
    /** ε′ of Theorem 2 uses the largest part's share ⌈n/P⌉/n: internal, and informative only (for a DP mechanism later run on one part). */
    ...internalOnly(internal, { sampled: count.optional(), epsilonPrime: epsilonPrime.optional() }),
  });
}

/**
 * The release-level disclosure review (src/common/review/release-review.ts). A run's review is computed
 * from the released files and the job, so every figure of it is published (verify computes it again
 * from the release folder); the reasons of the custodian's acknowledgements stay internal (the published
 * report says which checks were accepted). An assessment's review is projected from the input: internal only.
 */
function reviewReport(internal: boolean) {
  const severity = z.enum(['fail', 'warn']);
  return obj({
    basis: z.enum(['release', 'projected']),
    /** The method's sentence of what it assumes the attacker knows and what it protects. */
    attacker: z.string(),
    settings: obj({
      directIdentifiers: severity,
      maxProsecutorRisk: num,
      maxAverageProsecutorRisk: num.optional(),
      maxSampleUniqueShare: num.optional(),
      populationSize: count.optional(),
      samplingFraction: num.optional(),
      maxPopulationUniqueShare: num.optional(),
      maxJournalistRisk: num.optional(),
      maxIndividualRisk: num.optional(),
      rareSensitive: severity,
      rareCount: count,
    }),
    /** False: the release holds no records (counts only). */
    records: z.boolean(),
    directIdentifiers: z.array(obj({ file: z.string(), column: z.string(), kind: z.string(), reason: z.string() })),
    identity: z.array(
      obj({
        file: z.string(),
        quasiIdentifiers: z.array(z.string()),
        records: count,
        classes: count,
        sampleUniques: count,
        sampleUniqueShare: num,
        prosecutorHighest: num,
        prosecutorAverage: num,
        population: obj({
          fraction: num,
          model: z.string(),
          populationUniques: num.optional(),
          populationUniqueShare: num.optional(),
          /** k-map: each class of f records standing for f / π people (estimates, not bounds). */
          journalist: obj({ k: num, highest: num, average: num }).optional(),
        }).optional(),
        /** With a population: the individual risk of the released class sizes (src/common/risk/release-risk.ts). */
        risk: obj({ individualRiskHighest: num, individualRiskAverage: num.optional() }).optional(),
      }),
    ),
    sensitive: z.array(obj({ file: z.string(), column: z.string(), rareValues: count, rareRecords: count, homogeneousRecords: count.optional() })),
    checks: z.array(
      obj({
        check: z.enum(['direct-identifiers', 'prosecutor-risk', 'average-risk', 'sample-uniques', 'population-uniques', 'journalist-risk', 'individual-risk', 'rare-sensitive']),
        passed: z.boolean(),
        severity,
        finding: z.string(),
        fix: z.string().optional(),
        acknowledged: z.boolean().optional(),
      }),
    ),
    /** passed; failed (a "fail" check failed and is not acknowledged); accepted (every failed "fail" check acknowledged by the custodian). */
    verdict: z.enum(['passed', 'failed', 'accepted']),
    ...internalOnly(internal, { acknowledgements: z.array(obj({ check: z.string(), reason: z.string() })).optional() }),
  });
}

/** How many released answers the report repeats for the results view; all are in answers.csv. */
export const ANSWERS_SHOWN = 200;

function dpReport(internal: boolean) {
  const filtering = obj({ series: z.string(), length: count, halfWidth: count, gainIid: num, gainRelease: num, removalIid: num, removalRelease: num, mseRaw: num, mseFiltered: num });
  const inference = obj({ group: z.string(), value: z.string(), o1: num, o2: num, f: num, meanApprox: num, sdApprox: num, pAbove: num, pBelow: num, attackEpsilon: num });
  return obj({
    queries: count,
    /** Distinct queries after caching repeats: one noise draw each. */
    distinctQueries: count,
    sensitivity: num,
    sensitivityRule: z.string(),
    /** Noise scale b of every answer. */
    scale: num,
    noise: z.string(),
    grid: z.string().optional(),
    correlation: z.string(),
    epsilonPerAnswer: num,
    /** Correlated noise: ε_eff = √(ΔᵀR⁻¹Δ)/b for the worst one-person change found: a tail slope of the privacy loss, not a bound. */
    epsilonEffective: num.optional(),
    // The attacks measure the noisy answers against the true ones: the external variant lists none.
    filtering: emptyWhenExternal(internal, z.array(filtering).optional(), z.array(filtering).max(0).optional()),
    inference: emptyWhenExternal(internal, z.array(inference).optional(), z.array(inference).max(0).optional()),
    epsilonPrime: epsilonPrime.optional(),
    parts: count,
    /** Released answers below 0 (a fact of the published answers): noise on small counts. */
    negativeAnswers: count.optional(),
    /**
     * The first released answers with their 95% intervals, as in answers.csv, for the results view:
     * internal only, so the published report never repeats data (where a count could be taken for
     * the input's size).
     */
    ...internalOnly(internal, { answers: z.array(obj({ query: z.string(), part: count.optional(), answer: num, lower95: num, upper95: num })).max(ANSWERS_SHOWN).optional() }),
  });
}

/**
 * A chain of two methods (src/mechanisms/chain.ts): each step's method, its guarantee's words and
 * whether it holds, and its own summary and warnings (the published ones in the external variant).
 * The report's method is the last step's (the release is its tables), its guarantee the composed one;
 * the sections are both steps'.
 */
const chainStepReport = obj({
  type: z.string(),
  title: z.string(),
  parameters: nameRecord(z.union([z.string(), num, z.boolean()])),
  derived: nameRecord(z.union([z.string(), num])),
  levels: nameRecord(count).optional(),
  guarantee: obj({ name: z.string(), statement: z.string(), formula: z.string(), source: z.string(), holds: z.boolean().optional() }),
  summary: z.array(z.string()),
  warnings: z.array(z.string()),
});
const chainReport = obj({ steps: z.tuple([chainStepReport, chainStepReport]) });

/** The sections a mechanism adds to the report, by name; each mechanism's metadata lists its own (`chain`: a chain's report, never a mechanism's). */
export const REPORT_SECTIONS = {
  beta: betaReport,
  buckets: () => bucketReport,
  anonymity: anonymityReport,
  dp: dpReport,
  chain: () => chainReport,
} as const;
export type ReportSectionName = keyof typeof REPORT_SECTIONS;

const outputFile = obj({ name: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: count, rows: count.optional() });

function baseShape(internal: boolean) {
  return {
    schema: z.literal(REPORT_SCHEMA),
    kind: z.enum(['assessment', 'release']),
    variant: z.enum(['internal', 'external']).refine((v) => v === (internal ? 'internal' : 'external'), `the variant must be ${internal ? 'internal' : 'external'}`),
    createdAt: z.string(),
    software: obj({ name: z.literal('custos'), version: z.string(), node: z.string(), platform: z.string() }),
    testRandomness: z.boolean(),
    notice: z.string().optional(),
    summary: z.array(z.string()),
    /** The job as run (internal: with the input's checksum) or as published (external: file names only). */
    job: z.record(z.string(), z.unknown()),
    input: inputReport(internal),
    method: obj({
      type: z.string(),
      title: z.string(),
      parameters: nameRecord(z.union([z.string(), num, z.boolean()])),
      derived: nameRecord(z.union([z.string(), num])),
      /** Global recoding: the chosen hierarchy level of every quasi-identifier (the release shows them). */
      levels: nameRecord(count).optional(),
      /** Values computed from the confidential data outside the guarantee. */
      ...internalOnly(internal, {
        internal: nameRecord(num).optional(),
        /** Global recoding, in an assessment: the optimum at each suppression limit of a grid (the trade-off the person may choose from). */
        frontier: z.array(obj({ suppressionLimit: num, levels: nameRecord(count), measure: num, suppressedRecords: count, chosen: z.boolean() })).optional(),
        /** Global recoding, in an assessment of a small lattice: the transformations that meet the models, best first (the solution space the person may pick from). */
        solutions: z.array(obj({ levels: nameRecord(count), measure: num, suppressedRecords: count, highestRisk: num, chosen: z.boolean() })).optional(),
      }),
    }),
    guarantee: obj({
      name: z.string(),
      statement: z.string(),
      formula: z.string(),
      source: z.string(),
      /** Absent: no guarantee is claimed for the release as a whole (dp-counts with correlated noise: ε per answer only). */
      holds: z.boolean().optional(),
      epsilon: num.optional(),
      delta: num.optional(),
      rho: obj({ rho1: num, rho2: num }).optional(),
      /** β-privacy: per value the largest count/size over all buckets, which must be ≤ β_v. */
      maxInference: nameRecord(inferenceBound(internal)).optional(),
    }),
    risk: obj({
      adversary: z.string(),
      /** Randomized-response methods: micro groups and the (ε,δ) test after protection. */
      microGroups: count.optional(),
      violatingAfter: count.optional(),
      bySensitive: z.array(sensitiveReport(internal)).optional(),
      /** k-anonymity methods: released equivalence classes (identical released tuples) and the smallest. */
      classes: count.optional(),
      minClassSize: count.optional(),
      /** Identity disclosure on the quasi-identifiers (ARX / sdcMicro measures). */
      reidentification: obj({
        quasiIdentifiers: z.array(z.string()),
        population: z.string(),
        release: reidentificationRisk,
        /** The input's own classes. */
        ...internalOnly(internal, { original: reidentificationRisk.optional() }),
      }).optional(),
      ...internalOnly(internal, { violatingBefore: count.optional(), profile: riskProfileReport.optional() }),
    }),
    utility: obj({
      /** Mean relative error of the count-query pool: `release` for this release, other keys for baselines (internal only). */
      relativeError: emptyWhenExternal(internal, relativeErrors, obj({})),
      queryPool: z.string(),
      loss: num.optional(),
      mse: num.optional(),
      /** Generalization loss of the released cells, 0 (as collected) … 1 (fully generalized). */
      generalizationLoss: num.optional(),
      lossFunction: z.string().optional(),
      /** A run's analysis-based utility (classifier accuracy, contingency tables), measured against the input: internal only. */
      ...internalOnly(internal, { analysis: analysisReport.optional() }),
    }),
    output: obj({
      dir: z.string(),
      rows: count,
      files: z.array(outputFile),
      /** Records deleted with their class (not covered by the DP theorem). */
      ...internalOnly(internal, { suppressed: count.optional() }),
    }).optional(),
    review: reviewReport(internal).optional(),
    warnings: z.array(z.string()),
    /** An assessment of a setting a run would refuse (no recoding meets the models, say): why, and the job key to change. */
    ...internalOnly(internal, { cannotRun: obj({ message: z.string(), key: z.string() }).optional() }),
    /** The internal variant's CONFIDENTIAL mark, so the JSON carries it as every page and sheet does. */
    ...internalOnly(internal, { confidential: z.literal(CONFIDENTIAL_MARK).optional() }),
  };
}

/**
 * The report of a mechanism whose own sections are `sections`: they are
 * required, and any other mechanism's section is refused (a strict object).
 */
export function reportSchemaWith(variant: ReportVariant, sections: readonly ReportSectionName[]) {
  const internal = variant === 'internal';
  const own = Object.fromEntries(sections.map((name) => [name, REPORT_SECTIONS[name](internal)]));
  return z.object({ ...baseShape(internal), ...own }).strict();
}

/** Every field any report may hold (the internal variant, every section optional): the TypeScript shape of a report. */
export const anyReportSchema = z.object({
  ...baseShape(true),
  beta: betaReport(true).optional(),
  buckets: bucketReport.optional(),
  anonymity: anonymityReport(true).optional(),
  dp: dpReport(true).optional(),
  chain: chainReport.optional(),
});

/** A parsed value as code receives it: read-only all the way down. */
export type Frozen<T> = T extends readonly (infer U)[] ? readonly Frozen<U>[] : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

export type Report = Frozen<z.output<typeof anyReportSchema>>;
export type InputReport = Report['input'];
export type ColumnReport = InputReport['columns'][number];
export type SensitiveReport = NonNullable<Report['risk']['bySensitive']>[number];
export type RiskyGroup = NonNullable<SensitiveReport['riskiestGroups']>[number];
export type RelativeErrors = Report['utility']['relativeError'];
export type InferenceBound = NonNullable<Report['guarantee']['maxInference']>[string];
export type BetaReport = NonNullable<Report['beta']>;
export type BetaValueReport = BetaReport['values'][number];
export type BucketSettingReport = BetaReport['chosen'];
export type BucketReport = NonNullable<Report['buckets']>;
export type AnonymityReport = NonNullable<Report['anonymity']>;
export type DpReport = NonNullable<Report['dp']>;
export type OutputFile = NonNullable<Report['output']>['files'][number];
export type ReviewReport = NonNullable<Report['review']>;
export type RiskProfileReport = NonNullable<Report['risk']['profile']>;
export type ChainReport = NonNullable<Report['chain']>;
export type ChainStepReport = ChainReport['steps'][number];
export type AnalysisUtilityReport = NonNullable<Report['utility']['analysis']>;

/**
 * A copy without the numbers that are not finite: a value the report cannot
 * state (an error over no queries, a frequency of no released rows) is absent,
 * as the schema requires, not NaN written as null.
 */
export function withoutNonFinite<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNonFinite) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'number' && !Number.isFinite(v)) continue;
    out[key] = withoutNonFinite(v);
  }
  return out as T;
}
