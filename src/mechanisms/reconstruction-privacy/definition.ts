import { z } from 'zod';
import { domains, probability } from '../../common/job/job-parts.js';
import type { MechanismDefinition, ReportFigures } from '../../common/mechanism.js';
import { comparison } from './compare.js';
import { randomizedView } from '../../common/report/randomized-view.js';
import { attack, riskTest } from '../../common/randomized-response/job-parts.js';

export const schema = z
  .object({
    type: z.literal('reconstruction-privacy'),
    retention: probability('retention'),
    ...riskTest,
    /** Trim the few rows that sampling coins add so every group passes the exact test. */
    strict: z.boolean().default(true),
    /** Groups with s_g < 1 cannot be protected at these parameters. */
    unprotectable: z.enum(['suppress', 'reject']).default('suppress'),
    domains,
    attack,
  })
  .strict();

export type ReconstructionPrivacySpec = z.output<typeof schema>;

/** How the reports set its figures (its release meets the (ε,δ) test, its guarantee): its metadata, and its view's option. */
const reportFigures: ReportFigures = { utilityQueries: 'sensitive-value', releaseIsPlainPerturbation: false, releaseMeetsReconstructionTest: true };

export const reconstructionPrivacy: MechanismDefinition<typeof schema> = {
  schema,
  suggested: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3 },
  domainsOf: 'sensitive',
  recodes: false,
  compare: comparison,
  reportView: randomizedView(reportFigures),
  chain: { role: 'alone', why: 'samples and scales the records of each group (a group may release fewer records than it has, or none), so the quasi-identifiers of the released file would no longer be those the identity step protected' },
  metadata: {
    type: 'reconstruction-privacy',
    aliases: ['reconstruction', 'reconstruction-private'],
    title: '(ε,δ)-reconstruction privacy (Sampling, Perturbing, Scaling)',
    cardTitle: 'Reconstruction privacy',
    protects: 'Randomizes the sensitive value and samples down groups of people who share all their other values, so that reconstructing what such a group has in common stays unreliable even for an adversary who knows who is in it: the Chernoff bounds on missing the frequency of each value by more than ε stay at least δ.',
    costs: 'Aggregate counts stay unbiased; small-group detail gets noisier and large groups are published from a sample.',
    guarantee: '(ε,δ)-reconstruction privacy: a Chernoff-bound test checked for every micro group; the report names any group that fails it.',
    sensitiveColumns: 'some',
    differentiallyPrivate: false,
    reportSections: [],
    attackerKnowledge: 'This method assumes the attacker already knows who is in the file and their quasi-identifiers; it protects {sensitive} only (randomized, and large groups sampled down): the quasi-identifiers and the other columns are published as collected.',
    sensitiveRelease: 'protected',
    fieldNames: {},
    recommendation: {
      guards: 'attribute',
      reason: 'Randomizes the sensitive value and samples down groups of people who share all their other values, so what such a group has in common (its share of each diagnosis) cannot be reconstructed reliably, even by someone who knows who is in it.',
    },
    reportFigures,
    source: 'Wang, Han, Fu, “Randomization resilient to sensitive reconstruction” (arXiv:1202.3179, 2012)',
  },
};
