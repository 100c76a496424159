import { z } from 'zod';
import type { MechanismDefinition } from '../../common/mechanism.js';
import { comparison } from './compare.js';
import { anonymityView } from '../../common/report/anonymity-view.js';
import { hierarchies, maxLevelOf } from '../../common/recoding/hierarchy-spec.js';
import { nameRecord } from '../../common/job/job-parts.js';
import { MEASURES } from '../../common/recoding/search/measures.js';
import type { PrivacyModel } from '../../common/recoding/search/models.js';

const share = (what: string) => z.number().min(0, `${what} is a share in [0, 1]`).max(1, `${what} is a share in [0, 1]`);
const levelNumber = z.number().int('a level is a whole number ≥ 0').min(0, 'a level is a whole number ≥ 0');
const risk = z.number().gt(0, 'a risk threshold lies in (0, 1]').max(1, 'a risk threshold lies in (0, 1]');

/**
 * A risk threshold. The attacker is the prosecutor unless `attacker` says "journalist": a journalist
 * does not know whether the target is in the data, only that the data are a sample of a population;
 * `populationSize` (N ≥ the input's records) or `samplingFraction` (π) says how large a sample. The
 * journalist threshold is enforced on the bound of the journalist's risk, 1 / class size (a class's
 * population count is at least its sample count); the population gives estimates, reported only.
 */
function riskModel<T extends 'maximum-risk' | 'average-risk'>(type: T) {
  return z
    .object({
      type: z.literal(type),
      risk,
      attacker: z.enum(['prosecutor', 'journalist']).optional(),
      populationSize: z.number().int('the population size is a whole number').positive('the population size is a whole number ≥ 1').optional(),
      samplingFraction: z.number().gt(0, 'the sampling fraction lies in (0, 1]').max(1, 'the sampling fraction lies in (0, 1]').optional(),
    })
    .strict();
}

/**
 * The sensitive column a model of the sensitive value applies to (ARX names one per model). Optional
 * when the job marks one sensitive column; with several, every such model names its own.
 */
const attribute = z.string().min(1, 'name a sensitive column').optional();

/** The models of the job file; ℓ-diversity, t-closeness, β-likeness and δ-disclosure apply to their `attribute`, by default the one sensitive column. */
export const modelSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('k-anonymity'), k: z.number().int('k is a whole number ≥ 2').min(2, 'k must be at least 2') }).strict(),
  z
    .object({
      type: z.literal('l-diversity'),
      l: z.number().int('ℓ is a whole number ≥ 2').min(2, 'ℓ must be at least 2'),
      variant: z.enum(['distinct', 'entropy', 'recursive']).default('distinct'),
      /** Recursive (c,ℓ)-diversity's c. */
      c: z.number().gt(0, 'c must be > 0').optional(),
      attribute,
    })
    .strict(),
  z
    .object({
      type: z.literal('t-closeness'),
      t: z.number().gt(0, 't must lie in (0, 1]').lte(1, 't must lie in (0, 1]'),
      /** equal: every two values 1 apart (categories); ordered: by the values' order (numbers); hierarchical: by the sensitive column's hierarchy. */
      distance: z.enum(['equal', 'ordered', 'hierarchical']).default('equal'),
      attribute,
    })
    .strict(),
  /** Enhanced (ARX's default): (q_v − p_v)/p_v ≤ min(β, −ln p_v) for every value more frequent in the class than in the input; basic: ≤ β. */
  z
    .object({
      type: z.literal('beta-likeness'),
      beta: z.number().gt(0, 'β must be > 0'),
      variant: z.enum(['enhanced', 'basic']).default('enhanced'),
      attribute,
    })
    .strict(),
  /** |ln(q_v / p_v)| < δ for every value a class holds (natural logarithm, as Brickell and Shmatikov). */
  z.object({ type: z.literal('delta-disclosure'), delta: z.number().gt(0, 'δ must be > 0'), attribute }).strict(),
  /**
   * δ-presence with a research subset (ARX's DPresence): the input is the population, the records the
   * `subset` column marks are the research subset, which alone is released; every released class holds
   * between deltaMin and deltaMax of the input's records with its generalized quasi-identifiers.
   */
  z
    .object({
      type: z.literal('delta-presence'),
      deltaMin: share('δmin').default(0),
      deltaMax: share('δmax'),
      /** The column that marks the research subset: 1, true or yes (in it), 0, false or no (not), any case. */
      subset: z.string().min(1, 'name the column that marks the research subset'),
    })
    .strict(),
  /** No released record above `risk`: 1 / its class size, the prosecutor's risk and the journalist's bound. */
  riskModel('maximum-risk'),
  /** The released records' mean risk at most `risk`: classes / records, the prosecutor's average and the journalist's bound. */
  riskModel('average-risk'),
]);
export type ModelSpec = z.output<typeof modelSchema>;

export const schema = z
  .object({
    type: z.literal('global-recoding'),
    /** Generalization hierarchies of the quasi-identifiers (a column without one is kept as is); the sensitive column's, for hierarchical t-closeness. */
    hierarchies,
    /** At least one, unless local suppression is set (then none: the levels stay as collected, the cells do the work). */
    models: z.array(modelSchema),
    /** The largest share of records that may be suppressed (deleted with their class), as ARX's suppression limit. */
    suppressionLimit: share('the suppression limit').default(0),
    measure: z.enum(MEASURES).default('loss'),
    /**
     * The Loss's generalization/suppression factor, as ARX's Metric.createLossMetric(gsFactor): 0.5 (the
     * default) weighs a suppressed record as a fully generalized one; below, suppression costs less
     * (a suppressed record costs its share plus 2·gsFactor of the rest); above, generalization costs
     * less (a released value costs 2 − 2·gsFactor of its share). With measure "loss" only.
     */
    gsFactor: share('the generalization/suppression factor').optional(),
    /**
     * ARX's attribute weights (ARXConfiguration.setAttributeWeight): a quasi-identifier with a higher
     * weight counts more in the Loss, so the search generalizes it less. Weights in [0, 1]; a column
     * not named weighs 0.5, ARX's default; all are divided by the largest. With measure "loss" only.
     */
    attributeWeights: z.array(z.object({ column: z.string().min(1, 'name a column'), weight: share('a weight') }).strict()).optional(),
    /**
     * The levels a quasi-identifier may take ("keep birth year"): a number pins the column to that
     * level, { min, max } allows a range (either end may be left out). The search covers only the
     * transformations within them; a level for every quasi-identifier names one transformation exactly.
     */
    levels: nameRecord(z.union([levelNumber, z.object({ min: levelNumber.optional(), max: levelNumber.optional() }).strict()]), 'an object of column name → level or { "min": level, "max": level }').optional(),
    /**
     * How the lattice is searched: exhaustively (the optimum, up to MAX_LATTICE_NODES transformations),
     * or by a heuristic with a budget (the best transformation it finds and a bound on how far the
     * optimum can be). auto: exhaustive up to that size, the heuristic beyond.
     */
    search: z
      .object({
        strategy: z.enum(['auto', 'exhaustive', 'heuristic']).default('auto'),
        /** The heuristic's time budget. */
        timeLimitSeconds: z.number().gt(0, 'the time limit is > 0 seconds').max(86_400, 'the time limit is at most 86,400 seconds (a day)').default(60),
        /** The heuristic's budget in transformations evaluated: the same steps give the same answer. */
        steps: z.number().int('steps is a whole number ≥ 1').min(1, 'steps is a whole number ≥ 1').optional(),
      })
      .strict()
      .optional(),
    /**
     * After the recoding and its record suppression, cells of the released quasi-identifiers are
     * suppressed ("*", a wildcard) until every record is compatible with at least k records, as
     * sdcMicro's kAnon. Importance: a column with a higher weight is suppressed later (unnamed: 1).
     */
    localSuppression: z
      .object({
        k: z.number().int('k is a whole number ≥ 2').min(2, 'k must be at least 2'),
        importance: z.array(z.object({ column: z.string().min(1, 'name a column'), weight: z.number().gt(0, 'a weight is > 0') }).strict()).default([]),
      })
      .strict()
      .optional(),
  })
  .strict();

export type GlobalRecodingSpec = z.output<typeof schema>;

function refine(m: GlobalRecodingSpec, ctx: z.RefinementCtx): void {
  for (const [column, bound] of Object.entries(m.levels ?? {})) {
    const { min, max } = levelRange(bound);
    if (min !== undefined && max !== undefined && min > max) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['levels', column], message: `the lowest level (${min}) is above the highest (${max})` });
    // Hierarchies whose height the job itself states; one read from a file is checked when it is read.
    const spec = Object.hasOwn(m.hierarchies, column) ? m.hierarchies[column] : undefined;
    const height = spec === undefined ? undefined : maxLevelOf(spec);
    const top = max ?? min;
    if (height !== undefined && top !== undefined && top > height) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['levels', column, ...(typeof bound === 'number' ? [] : [max !== undefined ? 'max' : 'min'])], message: `level ${top} is beyond the hierarchy's ${height} levels` });
  }
  if (m.models.length === 0 && !m.localSuppression) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['models'], message: 'name at least one privacy model (or local suppression)' });
  if (m.localSuppression) {
    m.models.forEach((model, i) => {
      // Wildcard frequencies define who a record hides among, not which sensitive values a class holds.
      if (needsSensitiveColumn(model)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['models', i], message: 'local suppression goes with k-anonymity and the risk thresholds only; ℓ-diversity and t-closeness are not defined on its wildcard classes' });
    });
    const seen = new Set<string>();
    m.localSuppression.importance.forEach((entry, i) => {
      if (seen.has(entry.column)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['localSuppression', 'importance', i, 'column'], message: `"${entry.column}" is weighed twice` });
      seen.add(entry.column);
    });
  }
  if (m.measure !== 'loss') {
    if (m.gsFactor !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['gsFactor'], message: `the generalization/suppression factor belongs to the Loss measure ("measure": "loss"), not ${m.measure}` });
    if (m.attributeWeights !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['attributeWeights'], message: `attribute weights belong to the Loss measure ("measure": "loss"), not ${m.measure}` });
  }
  const weighed = new Set<string>();
  m.attributeWeights?.forEach((entry, i) => {
    if (weighed.has(entry.column)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['attributeWeights', i, 'column'], message: `"${entry.column}" is weighed twice` });
    weighed.add(entry.column);
  });
  const populations = new Set<string>();
  m.models.forEach((model, i) => {
    if (model.type !== 'maximum-risk' && model.type !== 'average-risk') return;
    const given = (model.populationSize !== undefined ? 1 : 0) + (model.samplingFraction !== undefined ? 1 : 0);
    if (model.attacker === 'journalist' && given !== 1) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['models', i], message: 'the journalist risk needs the population: populationSize or samplingFraction (one of them)' });
    if (model.attacker !== 'journalist' && given > 0) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['models', i], message: 'populationSize and samplingFraction belong to the journalist attacker ("attacker": "journalist")' });
    if (model.attacker === 'journalist') populations.add(`${model.populationSize}|${model.samplingFraction}`);
  });
  if (populations.size > 1) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['models'], message: 'the journalist models name different populations; give one' });
  const presence = m.models.flatMap((model, i) => (model.type === 'delta-presence' ? [{ model, i }] : []));
  presence.forEach(({ model, i }, n) => {
    if (n > 0) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['models', i], message: 'one δ-presence model: the research subset is one' });
    if (model.deltaMax === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['models', i, 'deltaMax'], message: 'δmax = 0 would release no record: give δmax > 0' });
    if (model.deltaMin > model.deltaMax) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['models', i, 'deltaMin'], message: `δmin (${model.deltaMin}) is above δmax (${model.deltaMax})` });
  });
  if (presence.length > 0) {
    // As far as the search's subset counting goes (ARX counts the other models on the subset too; the sensitive histograms and the average risk are not counted so here).
    m.models.forEach((model, i) => {
      if (needsSensitiveColumn(model) || model.type === 'average-risk') ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['models', i], message: 'δ-presence goes with k-anonymity and the highest risk only (they count the research subset\'s records in each class)' });
    });
    if (m.localSuppression) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['localSuppression'], message: 'δ-presence is a property of whole classes; local suppression\'s wildcard records are not classes' });
  }
  m.models.forEach((model, i) => {
    if (model.type === 'l-diversity' && model.variant === 'recursive' && model.c === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['models', i, 'c'], message: 'recursive (c,ℓ)-diversity needs c' });
    if (model.type === 'l-diversity' && model.variant !== 'recursive' && model.c !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['models', i, 'c'], message: 'c belongs to the recursive variant only' });
  });
}

/** A job's level entry as a range: a number pins both ends. */
export function levelRange(bound: number | { readonly min?: number | undefined; readonly max?: number | undefined }): { readonly min: number | undefined; readonly max: number | undefined } {
  return typeof bound === 'number' ? { min: bound, max: bound } : { min: bound.min, max: bound.max };
}

/** The job's journalist population as a sampling fraction π (input records / population), or undefined without one. */
export function samplingFraction(models: readonly ModelSpec[], rowCount: number): number | undefined {
  for (const model of models) {
    if ((model.type === 'maximum-risk' || model.type === 'average-risk') && model.attacker === 'journalist') return model.samplingFraction ?? rowCount / model.populationSize!;
  }
  return undefined;
}

/**
 * The engine's model for a job's model. A journalist threshold is enforced on the journalist risk's
 * upper bound, 1 / |C|: whatever the population, a class of |C| released records stands for at least
 * |C| people, so the risk of a person in it is at most 1 / |C|. The sampling fraction's π / |C| is
 * the risk only if the class's population count is its expected |C| / π under uniform sampling: an
 * estimate, not a bound (a sample unique may be a population unique), so it is never enforced.
 * Issue 36 (a population model: k-map with a population table or an estimator) may bound it better.
 */
export function engineModel(model: ModelSpec, attributeIndex?: number): PrivacyModel {
  // The search's index of the model's sensitive column; unsaid for the first (and only), as before.
  const on = attributeIndex ? { attribute: attributeIndex } : {};
  switch (model.type) {
    case 'k-anonymity':
      return model;
    case 'l-diversity':
      return model.variant === 'recursive' ? { type: 'recursive-cl-diversity', c: model.c!, l: model.l, ...on } : { type: model.variant === 'entropy' ? 'entropy-l-diversity' : 'distinct-l-diversity', l: model.l, ...on };
    case 't-closeness':
      return { type: 't-closeness', t: model.t, distance: model.distance, ...on };
    case 'beta-likeness':
      return { type: 'beta-likeness', beta: model.beta, variant: model.variant, ...on };
    case 'delta-disclosure':
      return { type: 'delta-disclosure', delta: model.delta, ...on };
    case 'maximum-risk':
    case 'average-risk':
      return { type: model.type, risk: model.risk };
    case 'delta-presence':
      return { type: 'delta-presence', deltaMin: model.deltaMin, deltaMax: model.deltaMax };
  }
}

/** The job's δ-presence model, if it states one. */
export const presenceOf = (models: readonly ModelSpec[]): Extract<ModelSpec, { type: 'delta-presence' }> | undefined => models.find((m): m is Extract<ModelSpec, { type: 'delta-presence' }> => m.type === 'delta-presence');

/** How a value of the subset column reads: in the research subset, not in it, or neither (refused). */
export function subsetMembership(value: string): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (v === '1' || v === 'true' || v === 'yes') return true;
  if (v === '0' || v === 'false' || v === 'no') return false;
  return undefined;
}

export const needsSensitiveColumn = (model: ModelSpec): boolean => model.type === 'l-diversity' || model.type === 't-closeness' || model.type === 'beta-likeness' || model.type === 'delta-disclosure';

/** A model of the sensitive values with its parameter, as a chain's refusal names it. */
function sensitiveModelName(model: ModelSpec): string {
  switch (model.type) {
    case 'l-diversity':
      return `ℓ-diversity (ℓ = ${model.l})`;
    case 't-closeness':
      return `t-closeness (t = ${model.t})`;
    case 'beta-likeness':
      return `β-likeness (β = ${model.beta})`;
    case 'delta-disclosure':
      return `δ-disclosure privacy (δ = ${model.delta})`;
    default:
      return model.type;
  }
}

/** Models measured against the input's distribution of the sensitive value, suppressed records included: the release alone does not hold it. */
export const comparesWithInput = (model: ModelSpec): boolean => model.type === 't-closeness' || model.type === 'beta-likeness' || model.type === 'delta-disclosure';

/** The sensitive column a model names, if it names one. */
export const attributeOf = (model: ModelSpec): string | undefined => (needsSensitiveColumn(model) ? (model as { attribute?: string }).attribute : undefined);

/** A model in words, as the report and the wizard name it (on its own attribute, or on `sensitive`, the job's one sensitive column). */
export function modelText(model: ModelSpec, sensitive?: string): string {
  const column = attributeOf(model) ?? sensitive;
  const on = column ? ` on ${column}` : '';
  switch (model.type) {
    case 'k-anonymity':
      return `${model.k}-anonymity`;
    case 'l-diversity':
      return model.variant === 'recursive' ? `recursive (${model.c}, ${model.l})-diversity${on}` : `${model.variant} ${model.l}-diversity${on}`;
    case 't-closeness':
      return `${model.t}-closeness (${model.distance} distance)${on}`;
    case 'beta-likeness':
      return `${model.variant} ${model.beta}-likeness${on}`;
    case 'delta-disclosure':
      return `${model.delta}-disclosure privacy${on}`;
    case 'maximum-risk':
    case 'average-risk':
      return `${model.type === 'maximum-risk' ? 'highest' : 'average'} ${model.attacker ?? 'prosecutor'} risk ≤ ${model.risk}${populationText(model)}`;
    case 'delta-presence':
      return `(${model.deltaMin}, ${model.deltaMax})-presence of the research subset ${model.subset}`;
  }
}

function populationText(model: Extract<ModelSpec, { type: 'maximum-risk' | 'average-risk' }>): string {
  if (model.attacker !== 'journalist') return '';
  const population = model.populationSize !== undefined ? `population ${model.populationSize}` : `sampling fraction ${model.samplingFraction}`;
  return ` (on its upper bound 1/|class|; ${population} for estimates only)`;
}


export const globalRecoding: MechanismDefinition<typeof schema> = {
  schema,
  suggested: { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 5 }], suppressionLimit: 0.05, measure: 'loss' },
  domainsOf: 'none',
  refine,
  recodes: true,
  compare: comparison,
  reportView: anonymityView,
  // It generalizes the quasi-identifiers by role only: a sensitive column's hierarchy serves t-closeness's distance and is not applied.
  chain: {
    role: 'identity',
    namedColumns: () => [],
    // Every model of the sensitive values within a class (needsSensitiveColumn): the second step bucketizes or perturbs those values, so the released classes would not show the model held.
    sensitiveModels: (method) => method.models.flatMap((m, i) => (needsSensitiveColumn(m) ? [{ key: `models[${i}]`, model: sensitiveModelName(m) }] : [])),
  },
  metadata: {
    type: 'global-recoding',
    aliases: ['k-anonymity', 'k-anonymisation', 'k-anonymization', 'l-diversity', 't-closeness', 'arx', 'generalization', 'generalisation', 'recoding', 'local-suppression'],
    title: 'Optimal global recoding',
    cardTitle: 'Optimal global recoding (k-anonymity, ℓ-diversity, t-closeness, risk thresholds)',
    protects:
      'The classic de-identification of ARX and sdcMicro users: every quasi-identifier is generalized along its hierarchy, the least destructive combination of levels is chosen over the whole lattice, and records in classes that still fail the model are deleted, up to a share you set. k-anonymity and the risk thresholds protect against re-identification by someone who knows a person\'s quasi-identifiers; ℓ-diversity and t-closeness against learning the sensitive value from the class.',
    costs: 'Detail is coarsened in whole columns and the records of failing classes are deleted. The models are syntactic: there is no differential-privacy guarantee, and the choice of levels depends on the data; use safe k-anonymity\'s private search when a DP guarantee is wanted.',
    guarantee: 'Every released class meets every model (k-anonymity, ℓ-diversity, t-closeness, prosecutor or journalist risk thresholds, the journalist\'s on its upper bound 1/|class|, never on an estimate from the population); with local suppression, every released record is compatible with at least k records ("*" matching any value); no DP guarantee.',
    sensitiveColumns: 'none',
    differentiallyPrivate: false,
    reportSections: ['anonymity'],
    attackerKnowledge: 'This method assumes the attacker knows a person\'s quasi-identifiers (and, against the prosecutor, that the person is in the file); every released class meets the models on the generalized quasi-identifiers, and {sensitive} and the other columns are published as collected within their classes.',
    sensitiveRelease: 'as-collected',
    fieldNames: {},
    recommendation: {
      guards: 'identity',
      reason: 'Coarsens the quasi-identifiers (age bands, shorter postcodes) just enough that every combination is shared by at least k records and deletes the few records that still stand out, so knowing someone\'s quasi-identifiers does not single out their record.',
    },
    reportFigures: { utilityQueries: 'quasi-identifier', releaseIsPlainPerturbation: false, releaseMeetsReconstructionTest: false },
    source: 'Prasser, Kohlmayer et al., ARX (the search, models and measures as in ARX 3.9); Sweeney 2002; Machanavajjhala et al. 2007; Li, Li, Venkatasubramanian 2007; Templ, Kowarik, Meindl 2015 (sdcMicro, local suppression)',
  },
};
