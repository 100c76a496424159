/**
 * The release-level disclosure review: whatever the method's own theorem says, is the released file,
 * as a whole, fit to publish? Three families of findings, each computed from the released files alone
 * (so each figure is a fact anyone holding the release can count, and the published report may state it):
 *
 * - direct identifiers still present (direct-identifiers.ts: names, e-mail, telephone, national ids,
 *   full dates, full postcodes, free text), per file and column, with the reason;
 * - identity risk over the released quasi-identifiers: sample uniques, the highest and average
 *   prosecutor risk (1 / class size), and, when the job states the population, the number of people
 *   unique in the population estimated by Dankar et al.'s rule from the released class sizes;
 * - sensitive values left unprotected, for methods that publish a sensitive column as collected: values
 *   held by fewer than `rareCount` released records, and records whose released class holds one value
 *   of the sensitive column only (anyone who places a person in that class learns the value).
 *
 * The verdict compares them with the job's `review` thresholds (defaults: no direct identifier, highest
 * prosecutor risk ≤ 0.2). A failed check the job acknowledges, with its reason, makes the verdict
 * "accepted": the run then writes the release and the published report says the custodian accepted it.
 * This file holds the settings, the verdict and the words; the figures are computed by the Node side
 * (src/jobs/review/) from the released tables.
 */
import { z } from 'zod';
import { riskThresholdChecks, type ReleasedRiskFigures } from '../risk/release-risk.js';

export const REVIEW_CHECKS = ['direct-identifiers', 'prosecutor-risk', 'average-risk', 'sample-uniques', 'population-uniques', 'journalist-risk', 'individual-risk', 'rare-sensitive'] as const;
export type ReviewCheckName = (typeof REVIEW_CHECKS)[number];

const severity = z.enum(['fail', 'warn']);
const share = (what: string) => z.number({ invalid_type_error: `${what} must be a number` }).gt(0, `${what} must be > 0`).lte(1, `${what} must be ≤ 1`);

/** Default: the highest prosecutor risk a careful agency publishes (every released class of 5 records or more). */
export const DEFAULT_MAX_PROSECUTOR_RISK = 0.2;
/** Default: a sensitive value held by fewer released records than this is rare. */
export const DEFAULT_RARE_COUNT = 5;

/** The job's `review` key: thresholds, the population, and the checks the custodian accepts failing. */
export const reviewSettings = z
  .object({
    /** A direct identifier in the release: "fail" (default) or "warn". */
    directIdentifiers: severity.default('fail'),
    /** Highest prosecutor risk (1 / smallest released class on the quasi-identifiers) allowed; default 0.2. */
    maxProsecutorRisk: share('review.maxProsecutorRisk').default(DEFAULT_MAX_PROSECUTOR_RISK),
    /** Average prosecutor risk (classes / records) allowed; no limit unless given. */
    maxAverageProsecutorRisk: share('review.maxAverageProsecutorRisk').optional(),
    /** Share of released records unique on the quasi-identifiers allowed; no limit unless given. */
    maxSampleUniqueShare: share('review.maxSampleUniqueShare').optional(),
    /** The population the records were drawn from (people), for Dankar's estimate of population uniques. */
    populationSize: z.number().int().positive().optional(),
    /** Or the sampling fraction of the released records (released records / population). */
    samplingFraction: share('review.samplingFraction').optional(),
    /** Estimated share of the population unique on the released quasi-identifiers allowed (needs a population). */
    maxPopulationUniqueShare: share('review.maxPopulationUniqueShare').optional(),
    /**
     * Highest journalist (k-map) risk allowed, 1 / the fewest people in the population estimated to share
     * a released record's quasi-identifiers (needs a population); default: maxProsecutorRisk.
     */
    maxJournalistRisk: share('review.maxJournalistRisk').optional(),
    /** Highest individual risk (Benedetti–Franconi, src/common/risk/release-risk.ts) allowed (needs a population). */
    maxIndividualRisk: share('review.maxIndividualRisk').optional(),
    /** Rare or homogeneous sensitive values published as collected: "warn" (default) or "fail". */
    rareSensitive: severity.default('warn'),
    rareCount: z.number().int().min(2).default(DEFAULT_RARE_COUNT),
    /** Checks the custodian accepts failing, each with the reason (kept in the internal report). */
    acknowledge: z
      .array(z.object({ check: z.enum(REVIEW_CHECKS), reason: z.string().trim().min(1, 'give the reason the risk is accepted') }).strict())
      .default([]),
  })
  .strict()
  .refine((r) => r.populationSize === undefined || r.samplingFraction === undefined, { message: 'give review.populationSize or review.samplingFraction, not both', path: ['samplingFraction'] })
  .refine((r) => r.maxPopulationUniqueShare === undefined || r.populationSize !== undefined || r.samplingFraction !== undefined, { message: 'review.maxPopulationUniqueShare needs review.populationSize or review.samplingFraction', path: ['maxPopulationUniqueShare'] })
  .refine((r) => r.maxJournalistRisk === undefined || r.populationSize !== undefined || r.samplingFraction !== undefined, { message: 'review.maxJournalistRisk needs review.populationSize or review.samplingFraction', path: ['maxJournalistRisk'] })
  .refine((r) => r.maxIndividualRisk === undefined || r.populationSize !== undefined || r.samplingFraction !== undefined, { message: 'review.maxIndividualRisk needs review.populationSize or review.samplingFraction', path: ['maxIndividualRisk'] });

export type ReviewSettings = z.output<typeof reviewSettings>;

/** The settings of a job without a `review` key: every default. */
export const DEFAULT_REVIEW: ReviewSettings = reviewSettings.parse({});

export interface DirectIdentifierFound {
  readonly file: string;
  readonly column: string;
  readonly kind: string;
  readonly reason: string;
}

export interface IdentityFigures {
  readonly file: string;
  readonly quasiIdentifiers: readonly string[];
  readonly records: number;
  readonly classes: number;
  readonly sampleUniques: number;
  readonly sampleUniqueShare: number;
  readonly prosecutorHighest: number;
  readonly prosecutorAverage: number;
  /**
   * With a population: Dankar's estimate of population uniques from the released class sizes (absent
   * when no model has a solution), and the journalist's (k-map) risk with each released class standing
   * for its expected f / π people: k the fewest, highest 1 / k, average over the records. Estimates, not bounds.
   */
  readonly population?: {
    readonly fraction: number;
    readonly populationUniques?: number;
    readonly populationUniqueShare?: number;
    readonly model: string;
    readonly journalist?: { readonly k: number; readonly highest: number; readonly average: number };
  };
  /** With a population: the individual risk of the released class sizes (src/common/risk/release-risk.ts). */
  readonly risk?: ReleasedRiskFigures;
}

export interface SensitiveFigures {
  readonly file: string;
  readonly column: string;
  /** Distinct values held by fewer than rareCount released records (missing values aside). */
  readonly rareValues: number;
  readonly rareRecords: number;
  /** Records whose class on the released quasi-identifiers holds one value of the column only (absent in a projection whose classes are recoded). */
  readonly homogeneousRecords?: number;
}

/** What the review found, before the verdict. */
export interface ReviewFigures {
  /** False: the release holds no records (dp-counts' answers): identity and attribute figures do not apply. */
  readonly records: boolean;
  readonly directIdentifiers: readonly DirectIdentifierFound[];
  readonly identity: readonly IdentityFigures[];
  readonly sensitive: readonly SensitiveFigures[];
}

export interface ReviewCheck {
  readonly check: ReviewCheckName;
  readonly passed: boolean;
  readonly severity: 'fail' | 'warn';
  readonly finding: string;
  /** What to change when it fails. */
  readonly fix?: string;
  readonly acknowledged?: boolean;
}

export type ReviewVerdict = 'passed' | 'failed' | 'accepted';

const pct = (x: number): string => `${(100 * x).toFixed(x > 0 && x < 0.001 ? 3 : 1)} %`;
const list = (names: readonly string[]): string => [...new Set(names)].join(', ');
const formatCount = (x: number): string => (Number.isInteger(x) ? x.toLocaleString('en-US') : x.toLocaleString('en-US', { maximumFractionDigits: 1 }));

/** The checks the settings ask for, each with its finding in words and its fix. */
export function reviewChecks(figures: ReviewFigures, settings: ReviewSettings): ReviewCheck[] {
  const acknowledged = new Set(settings.acknowledge.map((a) => a.check));
  const checks: ReviewCheck[] = [];
  const add = (check: ReviewCheckName, passed: boolean, severity: 'fail' | 'warn', finding: string, fix?: string): void => {
    checks.push({ check, passed, severity, finding, ...(passed || !fix ? {} : { fix }), ...(!passed && acknowledged.has(check) ? { acknowledged: true } : {}) });
  };
  if (!figures.records) {
    add('direct-identifiers', true, settings.directIdentifiers, 'the release holds counts, not records: no column of it is a person\'s value');
    return checks;
  }
  const direct = figures.directIdentifiers;
  add(
    'direct-identifiers',
    direct.length === 0,
    settings.directIdentifiers,
    direct.length === 0 ? 'no released column holds names, contact details, identity numbers, full dates, full postcodes or free text' : direct.map((d) => `${d.column}: ${d.kind} (${d.reason})`).join('; '),
    `remove or recode ${list(direct.map((d) => d.column))}: mark a free-text, name or number column "identifier" (removed), recode a full date to its year and a postcode to its first characters (global recoding with hierarchies)`,
  );
  const identity = figures.identity;
  const worst = identity.reduce<IdentityFigures | undefined>((w, t) => (w === undefined || t.prosecutorHighest > w.prosecutorHighest ? t : w), undefined);
  const qis = list(identity.flatMap((t) => t.quasiIdentifiers));
  const recode = `generalize or suppress the quasi-identifiers (${qis}) until every released class has at least ${Math.ceil(1 / settings.maxProsecutorRisk)} records: global recoding with k-anonymity, or fewer quasi-identifiers`;
  if (!worst) {
    add('prosecutor-risk', true, 'fail', 'no quasi-identifier is released: there is nothing to match a person on (check that the roles name every column an attacker may know)');
  } else {
    add(
      'prosecutor-risk',
      worst.prosecutorHighest <= settings.maxProsecutorRisk,
      'fail',
      `highest prosecutor risk ${worst.prosecutorHighest.toFixed(4)} (smallest class ${Math.round(1 / worst.prosecutorHighest)} record${worst.prosecutorHighest === 1 ? '' : 's'}) in ${worst.file}, limit ${settings.maxProsecutorRisk}; ${worst.sampleUniques.toLocaleString('en-US')} of ${worst.records.toLocaleString('en-US')} records (${pct(worst.sampleUniqueShare)}) are unique on ${list(worst.quasiIdentifiers)}`,
      recode,
    );
    const average = identity.reduce((m, t) => Math.max(m, t.prosecutorAverage), 0);
    if (settings.maxAverageProsecutorRisk !== undefined) add('average-risk', average <= settings.maxAverageProsecutorRisk, 'fail', `average prosecutor risk ${average.toFixed(4)}, limit ${settings.maxAverageProsecutorRisk}`, recode);
    const uniques = identity.reduce((m, t) => Math.max(m, t.sampleUniqueShare), 0);
    if (settings.maxSampleUniqueShare !== undefined) add('sample-uniques', uniques <= settings.maxSampleUniqueShare, 'fail', `${pct(uniques)} of the released records are unique on the quasi-identifiers, limit ${pct(settings.maxSampleUniqueShare)}`, recode);
    if (settings.maxPopulationUniqueShare !== undefined) {
      const shares = identity.map((t) => t.population?.populationUniqueShare).filter((s): s is number => s !== undefined);
      const highest = shares.length ? Math.max(...shares) : 0;
      add('population-uniques', highest <= settings.maxPopulationUniqueShare, 'fail', shares.length ? `an estimated ${pct(highest)} of the population is unique on the released quasi-identifiers (Dankar et al.), limit ${pct(settings.maxPopulationUniqueShare)}` : 'no population-uniqueness model has a solution for these class sizes', recode);
    }
    const mapped = identity.flatMap((t) => (t.population?.journalist ? [{ file: t.file, ...t.population.journalist }] : []));
    const journalist = mapped.reduce<(typeof mapped)[number] | undefined>((w, t) => (w === undefined || t.highest > w.highest ? t : w), undefined);
    if (journalist) {
      const limit = settings.maxJournalistRisk ?? settings.maxProsecutorRisk;
      add(
        'journalist-risk',
        journalist.highest <= limit,
        'fail',
        `highest journalist (k-map) risk ${journalist.highest.toFixed(4)} in ${journalist.file}: the fewest people estimated to share a released record's quasi-identifiers are ${formatCount(journalist.k)} (each class of f records standing for f / π people, π = the sampling fraction: an estimate, not a bound), average ${journalist.average.toFixed(4)}, limit ${limit}`,
        `generalize or suppress the quasi-identifiers (${qis}) until every released class stands for at least ${Math.ceil(1 / limit).toLocaleString('en-US')} people of the population`,
      );
    }
    for (const c of riskThresholdChecks(identity.map((t) => ({ file: t.file, ...(t.risk ? { figures: t.risk } : {}) })), settings)) add(c.check, c.passed, 'fail', c.finding, recode);
  }
  const sensitive = figures.sensitive;
  const exposed = sensitive.filter((s) => s.rareRecords > 0 || (s.homogeneousRecords ?? 0) > 0);
  add(
    'rare-sensitive',
    exposed.length === 0,
    settings.rareSensitive,
    sensitive.length === 0
      ? 'no sensitive column is published as collected (the method protects each, or there is none)'
      : exposed.length === 0
        ? `every value of ${list(sensitive.map((s) => s.column))} is held by at least ${settings.rareCount} released records, and no released class holds one value only`
        : exposed.map((s) => `${s.column} in ${s.file}: ${s.rareValues} value${s.rareValues === 1 ? '' : 's'} held by fewer than ${settings.rareCount} records (${s.rareRecords} records)${s.homogeneousRecords !== undefined ? `, ${s.homogeneousRecords} records in classes that hold one value only` : ''}`).join('; '),
    `protect ${list(exposed.map((s) => s.column))}: a method for the sensitive value (β-privacy, reconstruction privacy) or ℓ-diversity in global recoding; or recode it to coarser categories`,
  );
  return checks;
}

/** Failed "fail" checks decide: none → passed; all acknowledged → accepted; else failed. */
export function reviewVerdict(checks: readonly ReviewCheck[]): ReviewVerdict {
  const failed = checks.filter((c) => !c.passed && c.severity === 'fail');
  if (failed.length === 0) return 'passed';
  return failed.every((c) => c.acknowledged) ? 'accepted' : 'failed';
}

/** The failed "fail" checks not acknowledged: what stops the run. */
export function blockingChecks(checks: readonly ReviewCheck[]): ReviewCheck[] {
  return checks.filter((c) => !c.passed && c.severity === 'fail' && !c.acknowledged);
}

/** A mechanism's sentence of what it assumes the attacker knows, with the job's sensitive columns in place of {sensitive}. */
export function attackerSentence(template: string, sensitive: readonly string[]): string {
  return template.replaceAll('{sensitive}', sensitive.length === 0 ? 'no column in particular' : sensitive.join(', '));
}

/** One line per failed check, for the command line and the wizard. */
export function reviewProblems(checks: readonly ReviewCheck[]): string[] {
  return checks.filter((c) => !c.passed).map((c) => `${c.check}${c.severity === 'warn' ? ' (warning)' : c.acknowledged ? ' (accepted by the custodian)' : ''}: ${c.finding}${c.fix ? `. Fix: ${c.fix}` : ''}`);
}
