import { z } from 'zod';
import type { MechanismDefinition } from '../../common/mechanism.js';
import { hierarchies } from '../../common/recoding/hierarchy-spec.js';
import type { Measure } from './measures.js';
import type { PrivacyModel } from './models.js';

const share = (what: string) => z.number().min(0, `${what} is a share in [0, 1]`).max(1, `${what} is a share in [0, 1]`);
const risk = z.number().gt(0, 'a risk threshold lies in (0, 1]').max(1, 'a risk threshold lies in (0, 1]');

/** The models of the job file; ℓ-diversity and t-closeness apply to the one sensitive column. */
export const modelSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('k-anonymity'), k: z.number().int('k is a whole number ≥ 2').min(2, 'k must be at least 2') }).strict(),
  z
    .object({
      type: z.literal('l-diversity'),
      l: z.number().int('ℓ is a whole number ≥ 2').min(2, 'ℓ must be at least 2'),
      variant: z.enum(['distinct', 'entropy', 'recursive']).default('distinct'),
      /** Recursive (c,ℓ)-diversity's c. */
      c: z.number().gt(0, 'c must be > 0').optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('t-closeness'),
      t: z.number().gt(0, 't must lie in (0, 1]').lte(1, 't must lie in (0, 1]'),
      /** equal: every two values 1 apart (categories); ordered: by the values' order (numbers); hierarchical: by the sensitive column's hierarchy. */
      distance: z.enum(['equal', 'ordered', 'hierarchical']).default('equal'),
    })
    .strict(),
  /** Prosecutor risk: no released record above `risk` (1 / its class size). */
  z.object({ type: z.literal('maximum-risk'), risk }).strict(),
  /** Prosecutor risk: the released records' mean (classes / records) at most `risk`. */
  z.object({ type: z.literal('average-risk'), risk }).strict(),
]);
export type ModelSpec = z.output<typeof modelSchema>;

export const schema = z
  .object({
    type: z.literal('global-recoding'),
    /** Generalization hierarchies of the quasi-identifiers (a column without one is kept as is); the sensitive column's, for hierarchical t-closeness. */
    hierarchies,
    models: z.array(modelSchema).min(1, 'name at least one privacy model'),
    /** The largest share of records that may be suppressed (deleted with their class), as ARX's suppression limit. */
    suppressionLimit: share('the suppression limit').default(0),
    measure: z.enum(['loss', 'discernibility', 'aecs', 'entropy', 'precision']).default('loss'),
  })
  .strict();

export type GlobalRecodingSpec = z.output<typeof schema>;

function refine(m: GlobalRecodingSpec, ctx: z.RefinementCtx): void {
  m.models.forEach((model, i) => {
    if (model.type === 'l-diversity' && model.variant === 'recursive' && model.c === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['models', i, 'c'], message: 'recursive (c,ℓ)-diversity needs c' });
    if (model.type === 'l-diversity' && model.variant !== 'recursive' && model.c !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['models', i, 'c'], message: 'c belongs to the recursive variant only' });
  });
}

/** The engine's model for a job's model. */
export function engineModel(model: ModelSpec): PrivacyModel {
  switch (model.type) {
    case 'k-anonymity':
      return model;
    case 'l-diversity':
      return model.variant === 'recursive' ? { type: 'recursive-cl-diversity', c: model.c!, l: model.l } : { type: model.variant === 'entropy' ? 'entropy-l-diversity' : 'distinct-l-diversity', l: model.l };
    case 't-closeness':
      return { type: 't-closeness', t: model.t, distance: model.distance };
    case 'maximum-risk':
    case 'average-risk':
      return model;
  }
}

export const needsSensitiveColumn = (model: ModelSpec): boolean => model.type === 'l-diversity' || model.type === 't-closeness';

/** A model in words, as the report and the wizard name it. */
export function modelText(model: ModelSpec, sensitive?: string): string {
  const on = sensitive ? ` on ${sensitive}` : '';
  switch (model.type) {
    case 'k-anonymity':
      return `${model.k}-anonymity`;
    case 'l-diversity':
      return model.variant === 'recursive' ? `recursive (${model.c}, ${model.l})-diversity${on}` : `${model.variant} ${model.l}-diversity${on}`;
    case 't-closeness':
      return `${model.t}-closeness (${model.distance} distance)${on}`;
    case 'maximum-risk':
      return `highest prosecutor risk ≤ ${model.risk}`;
    case 'average-risk':
      return `average prosecutor risk ≤ ${model.risk}`;
  }
}

export const MEASURE_TITLES: { readonly [M in Measure]: string } = {
  loss: 'Loss (ARX MetricMDNMLoss: generalization intensity, suppressed records fully generalized)',
  discernibility: 'discernibility (ARX MetricSDNMDiscernability)',
  aecs: 'average equivalence class size (ARX MetricSDAECS)',
  entropy: 'non-uniform entropy (ARX MetricMDNUNMEntropy)',
  precision: 'precision (ARX MetricMDNMPrecision)',
};

export const globalRecoding: MechanismDefinition<typeof schema> = {
  schema,
  suggested: { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 5 }], suppressionLimit: 0.05, measure: 'loss' },
  refine,
  metadata: {
    type: 'global-recoding',
    title: 'Optimal global recoding',
    cardTitle: 'Optimal global recoding (k-anonymity, ℓ-diversity, t-closeness, risk thresholds)',
    protects:
      'The classic de-identification of ARX and sdcMicro users: every quasi-identifier is generalized along its hierarchy, the least destructive combination of levels is chosen over the whole lattice, and records in classes that still fail the model are deleted, up to a share you set. k-anonymity and the risk thresholds protect against re-identification by someone who knows a person\'s quasi-identifiers; ℓ-diversity and t-closeness against learning the sensitive value from the class.',
    costs: 'Detail is coarsened in whole columns and the records of failing classes are deleted. The models are syntactic: there is no differential-privacy guarantee, and the choice of levels depends on the data; use safe k-anonymity\'s private search when a DP guarantee is wanted.',
    guarantee: 'Every released class meets every model (k-anonymity, ℓ-diversity, t-closeness, risk thresholds); no DP guarantee.',
    sensitiveColumns: 'none',
    differentiallyPrivate: false,
    reportSections: ['anonymity'],
    source: 'Prasser, Kohlmayer et al., ARX (the search, models and measures as in ARX 3.9); Sweeney 2002; Machanavajjhala et al. 2007; Li, Li, Venkatasubramanian 2007',
  },
};
