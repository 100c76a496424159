import { z } from 'zod';
import type { Rational } from '../../common/exact/rational.js';
import { domains, exactValue, nameRecord } from '../../common/job/job-parts.js';
import type { MechanismDefinition } from '../../common/mechanism.js';
import { comparison } from './compare.js';
import { betaPrivacyView } from './report-view.js';

/**
 * β as a number or an exact string, in (0, 1]. The job keeps what the user
 * wrote (so it round-trips into reports); methods convert with exactValue.
 */
const betaValue = z.union([z.number(), z.string()]).superRefine((value, ctx) => {
  let r: Rational;
  try {
    r = exactValue(value);
  } catch {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${JSON.stringify(value)} is not a number or a fraction like "8/15"` });
    return;
  }
  if (r.num <= 0n || r.num > r.den) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `β must lie in (0, 1]; got ${JSON.stringify(value)}` });
});

const positiveRational = z.union([z.number(), z.string()]).superRefine((value, ctx) => {
  try {
    if (exactValue(value).num > 0n) return;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: `the coefficient must be a positive number; got ${JSON.stringify(value)}` });
});

export const schema = z
  .object({
    type: z.literal('beta-privacy'),
    sensitive: z.string().min(1).optional(),
    beta: z.union(
      [
        z.object({ default: betaValue, values: nameRecord(betaValue, 'an object of value → β').default({}) }).strict(),
        z.object({ coefficient: positiveRational }).strict(),
      ],
      { errorMap: () => ({ message: 'give { "default": β, "values": { "value": β } } or { "coefficient": c }' }) },
    ),
    algorithm: z.enum(['two-size', 'multi-size', 'anatomy']).default('multi-size'),
    minBucket: z.number().int().min(1).optional(),
    maxBucket: z.number().int('a whole number of records').min(1, 'a whole number of records, at least 1').max(10_000, 'at most 10,000 records').default(50),
    fakeValues: z.number().int('a whole number, 0 or more').min(0, 'a whole number, 0 or more').max(1000, 'at most 1,000').default(0),
    /**
     * Negative associations an adversary may have learnt: for a quasi-identifier value, sensitive
     * values that are implausible. A fake that some row of the bucket rules out is never used.
     */
    fakeExclusions: nameRecord(nameRecord(z.array(z.string()))).default({}),
    /** The sensitive column's domain: the values of the β table and of the fakes (declared and public, or "from-data"). */
    domains,
  })
  .strict();

export type BetaPrivacySpec = z.output<typeof schema>;

export const betaPrivacy: MechanismDefinition<typeof schema> = {
  schema,
  suggested: { type: 'beta-privacy', beta: { coefficient: 8 }, maxBucket: 500 },
  domainsOf: 'sensitive',
  recodes: false,
  compare: comparison,
  reportView: betaPrivacyView,
  chain: { role: 'attribute' },
  metadata: {
    type: 'beta-privacy',
    aliases: ['beta', 'bucketization', 'bucketisation', 'anatomy'],
    title: 'β-privacy bucketization',
    cardTitle: 'β-privacy buckets',
    protects: 'Publishes the sensitive column apart from the others, in buckets, so each value v is inferred with probability at most β_v — strict for rare, very sensitive values, relaxed for common ones.',
    costs: 'Links between the sensitive value and the other columns are blurred within each bucket; queries are answered by estimation.',
    guarantee: 'β-privacy: the probability of inferring a value v is at most β_v, for every value.',
    sensitiveColumns: 'one',
    differentiallyPrivate: false,
    reportSections: ['beta', 'buckets'],
    attackerKnowledge: 'This method assumes the attacker already knows who is in the file, their quasi-identifiers and how frequent each value of {sensitive} is overall; it bounds what the buckets add about {sensitive} only: the quasi-identifiers are published as collected.',
    sensitiveRelease: 'protected',
    fieldNames: {},
    recommendation: {
      guards: 'attribute',
      reason: 'Publishes the sensitive values apart from the other columns, in buckets, so no one\'s value can be inferred with a probability above the β you set, strictest for the rare, most sensitive values.',
    },
    reportFigures: { utilityQueries: 'sensitive-value', releaseIsPlainPerturbation: false, releaseMeetsReconstructionTest: false },
    source: 'Wang, Wang, Fu, Wong, “Inferential or differential: privacy laws dictate” (preprint; published as “Generalized bucketization scheme for flexible privacy settings”, Information Sciences, 2016)',
  },
};
