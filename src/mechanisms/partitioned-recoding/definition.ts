import { z } from 'zod';
import type { MechanismDefinition } from '../../common/mechanism.js';
import { comparison } from './compare.js';
import { anonymityView } from '../../common/report/anonymity-view.js';
import { checkLevels, hierarchies, levels } from '../../common/recoding/hierarchy-spec.js';
import { MEASURES } from '../../common/recoding/search/measures.js';

export const schema = z
  .object({
    type: z.literal('partitioned-recoding'),
    parts: z.number().int('a whole number ≥ 1').min(1, 'a whole number ≥ 1'),
    model: z.discriminatedUnion('type', [
      z.object({ type: z.literal('k-anonymity'), k: z.number().int().min(2, 'k must be at least 2') }).strict(),
      z.object({ type: z.literal('l-diversity'), l: z.number().int().min(2, 'l must be at least 2') }).strict(),
      z.object({ type: z.literal('t-closeness'), t: z.number().gt(0, 't must lie in (0, 1]').lte(1, 't must lie in (0, 1]') }).strict(),
    ]),
    hierarchies,
    /**
     * Fixed levels (column → level), or "search": the optimal recoding shared by every part, as
     * global recoding finds it (ARX's measures), with every part's classes meeting the model.
     */
    levels: z.union([z.literal('search'), levels]).default({}),
    /** levels "search": the largest share of all records deleted with their failing class, over every part. */
    suppressionLimit: z.number().min(0, 'the suppression limit is a share in [0, 1]').max(1, 'the suppression limit is a share in [0, 1]').default(0),
    /** levels "search": the utility measure the search minimizes. */
    measure: z.enum(MEASURES).default('loss'),
  })
  .strict();

export type PartitionedRecodingSpec = z.output<typeof schema>;

function refine(m: PartitionedRecodingSpec, ctx: z.RefinementCtx): void {
  if (m.levels !== 'search') checkLevels(m.hierarchies, m.levels, ctx);
  if (m.levels === 'search' && Object.keys(m.hierarchies).length === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['levels'], message: 'the search needs at least one hierarchy' });
  if (m.levels !== 'search' && (m.suppressionLimit !== 0 || m.measure !== 'loss')) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: [m.suppressionLimit !== 0 ? 'suppressionLimit' : 'measure'], message: 'the suppression limit and the measure belong to levels "search"; fixed levels delete every failing class' });
  }
}

export const partitionedRecoding: MechanismDefinition<typeof schema> = {
  schema,
  suggested: { type: 'partitioned-recoding', parts: 1, model: { type: 'k-anonymity', k: 5 } },
  domainsOf: 'none',
  refine,
  recodes: true,
  compare: comparison,
  reportView: anonymityView,
  chain: { role: 'alone', why: 'recodes random parts of the data with a private part assignment of its own: as a step of a chain its parts would be drawn from, or recode, another recoding\'s release, which its guarantee does not cover' },
  metadata: {
    type: 'partitioned-recoding',
    aliases: ['partitioned', 'partitioning', 'partitioned-k-anonymity'],
    title: 'Partitioned recoding',
    cardTitle: 'Partitioned recoding (k-anonymity, ℓ-diversity, t-closeness)',
    protects: 'The familiar models agencies know, applied to random disjoint parts of the data with one shared generalization, so the parts compose safely.',
    costs: 'Detail is coarsened and classes that fail the model are deleted; no formal DP guarantee by itself.',
    guarantee: 'k-anonymity, ℓ-diversity or t-closeness in every part.',
    sensitiveColumns: 'none',
    differentiallyPrivate: false,
    reportSections: ['anonymity'],
    attackerKnowledge: 'This method assumes the attacker knows a person\'s quasi-identifiers and that the person is in the file; each random part meets its model on the generalized quasi-identifiers, and {sensitive} and the other columns are published as collected within their classes.',
    sensitiveRelease: 'as-collected',
    fieldNames: {},
    recommendation: {
      guards: 'identity',
      reason: 'Generalizes the quasi-identifiers with one recoding shared by random parts of the file and deletes the classes of a part that still have fewer than k records (or fail ℓ-diversity, t-closeness), so no one is singled out in any part.',
      bestWhen: 'the file is split into random parts that are released or analysed separately and must compose safely',
    },
    reportFigures: { utilityQueries: 'quasi-identifier', releaseIsPlainPerturbation: false, releaseMeetsReconstructionTest: false },
    source: 'Clifton, Hanson, Merrill, Merrill, Zahraa, “A partitioned recoding scheme for privacy preserving data publishing” (PSD 2020)',
  },
};
