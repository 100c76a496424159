import { z } from 'zod';
import type { MechanismDefinition } from '../../common/mechanism.js';
import { comparison } from './compare.js';
import { anonymityView } from '../../common/report/anonymity-view.js';
import { checkLevels, hierarchies, levels } from '../../common/recoding/hierarchy-spec.js';
import { DEFAULT_LOSS_WEIGHT } from './lattice-score.js';

export const schema = z
  .object({
    type: z.literal('safe-k-anonymity'),
    /** "auto": the smallest k that meets the target for the given sampling rate. */
    k: z.union([z.number().int().min(2, 'k must be at least 2'), z.literal('auto')]),
    /** β, the Bernoulli sampling rate; "auto": the largest that meets the target for the given k. */
    sampling: z.union([z.number().gt(0, 'sampling must be > 0').lt(1, 'sampling must be < 1 (without sampling there is no DP guarantee)'), z.literal('auto')]),
    hierarchies,
    levels: z.union([z.literal('search'), levels]).default({}),
    /** The ε at which δ is reported when no target is given. */
    epsilon: z.number().gt(0).optional(),
    /** levels "search": the budget of the exponential-mechanism selection, added to ε. */
    searchEpsilon: z.number().gt(0, 'must lie in (0, 10]').max(10, 'must lie in (0, 10]').default(0.1),
    /** "lattice": one choice among every node with the whole budget (best utility); "path": SafePub's step-wise walk, for lattices too large to score whole. */
    searchStrategy: z.enum(['lattice', 'path']).default('lattice'),
    /** λ in the search score: a kept record scores 1 − λ·loss, a suppressed one 0 (1: detail first, as SafePub; 0: records first). */
    searchLossWeight: z.number().min(0, 'must lie between 0 and 1').max(1, 'must lie between 0 and 1').default(DEFAULT_LOSS_WEIGHT),
    target: z.object({ epsilon: z.number().gt(0, 'the target ε must be > 0'), delta: z.number().gt(0, 'must lie strictly between 0 and 1').lt(1, 'must lie strictly between 0 and 1') }).strict().optional(),
  })
  .strict();

export type SafeKAnonymitySpec = z.output<typeof schema>;

function refine(m: SafeKAnonymitySpec, ctx: z.RefinementCtx): void {
  if ((m.k === 'auto' || m.sampling === 'auto') && !m.target) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['target'], message: 'k or sampling "auto" needs a target { epsilon, delta } to solve for' });
  }
  if (m.k === 'auto' && m.sampling === 'auto') ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['k'], message: 'fix either k or sampling; only one can be solved for' });
  if (m.levels !== 'search') checkLevels(m.hierarchies, m.levels, ctx);
  if (m.levels === 'search' && Object.keys(m.hierarchies).length === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['levels'], message: 'the lattice search needs at least one hierarchy' });
}

export const safeKAnonymity: MechanismDefinition<typeof schema> = {
  schema,
  suggested: { type: 'safe-k-anonymity', k: 5, sampling: 0.1 },
  domainsOf: 'none',
  refine,
  recodes: true,
  compare: comparison,
  reportView: anonymityView,
  chain: { role: 'alone', why: 'is a recoding with a differentially private choice of its own: a second recoding before or after it would either spend that choice on recoded data chosen without privacy or recode its release again' },
  metadata: {
    type: 'safe-k-anonymity',
    aliases: ['safepub', 'safe-k', 'sampling-k-anonymity', 'dp-k-anonymity', 'differentially-private-k-anonymity'],
    title: 'Sampling + safe k-anonymization',
    cardTitle: 'Sampling + safe k-anonymization',
    protects: 'Releases a random sample of generalized records (age bands, regions…) in which every combination appears at least k times, with a formal (ε,δ)-differential-privacy guarantee: whether a given person was in the data changes the chance of any outcome by at most a factor e^ε plus δ. Levels you pick after looking at this data are not covered; the private search is.',
    costs: 'Only a sample is released and detail is coarsened; rare combinations are deleted.',
    guarantee: '(ε,δ)-differential privacy with δ = d(k, β, ε).',
    sensitiveColumns: 'none',
    differentiallyPrivate: true,
    reportSections: ['anonymity'],
    attackerKnowledge: 'This method assumes the attacker may know any person\'s values and whether that person is in the input; random sampling before k-anonymity gives (ε,δ)-differential privacy over the records, and the columns it does not generalize are published as collected within their classes.',
    sensitiveRelease: 'as-collected',
    fieldNames: {},
    recommendation: {
      guards: 'identity',
      reason: 'Releases a random sample generalized until every combination appears at least k times, with differential privacy: it holds whatever else the attacker knows, for whether a person is in the file and for every value of their record.',
      bestWhen: 'a formal differential-privacy guarantee is wanted and a sample of the records is enough',
    },
    reportFigures: { utilityQueries: 'quasi-identifier', releaseIsPlainPerturbation: false, releaseMeetsReconstructionTest: false },
    source: 'Li, Qardaji, Su, “On sampling, anonymization, and differential privacy or, k-anonymization meets differential privacy” (ASIACCS 2012)',
  },
};
