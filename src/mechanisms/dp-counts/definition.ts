import { z } from 'zod';
import { domains, nameRecord } from '../../common/job/job-parts.js';
import type { MechanismDefinition } from '../../common/mechanism.js';
import { comparison } from './compare.js';
import { dpCountsView } from './report-view.js';
import { MAX_RHO } from './glm.js';

export const schema = z
  .object({
    type: z.literal('dp-counts'),
    epsilon: z.number().gt(0, 'epsilon must be > 0').max(20),
    /** "marginals": every 1- and 2-way marginal over `columns`; or explicit count queries. */
    queries: z.union([z.literal('marginals'), z.array(z.object({ where: nameRecord(z.string(), 'an object of column name → value') }).strict()).min(1)]),
    columns: z.array(z.string()).min(1, 'choose at least one column to count').optional(),
    noise: z.enum(['laplace', 'generalized-laplace']).default('laplace'),
    correlation: z
      .union([
        z.object({ model: z.literal('ar1'), rho: z.number().gt(-1, 'ρ must lie strictly between −1 and 1').lt(1, 'ρ must lie strictly between −1 and 1') }).strict(),
        z.object({ groupBy: z.string().min(1, 'choose the grouping column'), rho: z.number().gte(0).lt(1).default(0.5) }).strict(),
      ])
      .optional(),
    /** Each query becomes a series over the values of this column, with AR(1) noise along it. */
    series: z.object({ by: z.string().min(1), iteration: z.enum(['keep', 'refresh']).default('keep') }).strict().optional(),
    /** Answer per part, each record assigned to one of the parts independently: ε′ of one part (a Poisson sample at rate 1/parts) is reported. */
    parts: z.number().int('a whole number ≥ 1').min(1, 'a whole number ≥ 1').default(1),
    /** The public values of a column: the cells of its marginals and the points of a series, whatever the data hold. */
    domains,
  })
  .strict();

export type DpCountsSpec = z.output<typeof schema>;

function refine(m: DpCountsSpec, ctx: z.RefinementCtx): void {
  if (m.queries === 'marginals' && !m.columns) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['columns'], message: 'marginals need the columns to cross' });
  if (m.noise === 'generalized-laplace' && !m.correlation && !m.series) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['correlation'], message: 'generalized Laplace noise needs a correlation model (ar1 or groupBy) or a series' });
  }
  const rho = m.correlation?.rho;
  if (rho !== undefined && Math.abs(rho) > MAX_RHO) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['correlation', 'rho'], message: `ρ is capped at ${MAX_RHO}: above it, differences of answers are almost noise-free` });
}

export const dpCounts: MechanismDefinition<typeof schema> = {
  schema,
  suggested: { type: 'dp-counts', epsilon: 1, queries: 'marginals' },
  domainsOf: 'method-columns',
  // Counts need columns to cross: the few-valued columns that are not identifiers, at most three.
  startingColumns: (columns, isIdentifier) => {
    const counted = columns.filter((c) => c.distinct >= 2 && c.distinct <= 50 && !isIdentifier(c.name)).sort((a, b) => a.distinct - b.distinct).slice(0, 3).map((c) => c.name);
    return { columns: counted.length > 0 ? counted : undefined, note: counted.length > 0 ? `The counts are every 1- and 2-way table over ${counted.join(', ')} (method.columns): choose the columns to publish.` : 'Choose method.columns: the columns whose 1- and 2-way tables are counted.' };
  },
  refine,
  recodes: false,
  compare: comparison,
  reportView: dpCountsView,
  chain: { role: 'alone', why: 'is differentially private: a data-dependent recoding in front of it looked at the data, and its choice is not private, so the composed release would have no DP guarantee' },
  metadata: {
    type: 'dp-counts',
    aliases: ['differential-privacy', 'dp', 'laplace', 'counts', 'noisy-counts', 'contingency-tables'],
    title: 'Differentially private counts',
    cardTitle: 'Differentially private counts',
    protects: 'Publishes tables of counts (marginals, monthly series) with noise, so the counts reveal little about whether any one person is in the data (exact discrete Laplace: ε-DP); correlated noise, an approximation of Laplace in floating point, resists filtering when the counts are correlated.',
    costs: 'Every count is off by a few units (shown as a 95% interval); small counts become unreliable.',
    guarantee: 'ε-differential privacy with independent noise; with correlated noise, ε for each answer alone and no guarantee for the answers together (ε_eff, reported for the worst one-person change, is a tail slope of the privacy loss, not a bound).',
    sensitiveColumns: 'none',
    differentiallyPrivate: true,
    reportSections: ['dp'],
    attackerKnowledge: 'This method assumes the attacker may know everything about everyone but one person; each noisy count is differentially private and no record is published.',
    sensitiveRelease: 'protected',
    fieldNames: { columns: 'the columns to count' },
    recommendation: {
      guards: 'counts',
      reason: 'Publishes tables of counts with noise instead of records, so no row can be traced to a person; with its exact discrete Laplace noise the tables are ε-differentially private whatever else the attacker knows.',
    },
    reportFigures: { utilityQueries: 'quasi-identifier', releaseIsPlainPerturbation: false, releaseMeetsReconstructionTest: false },
    source: 'Dwork, McSherry, Nissim, Smith, “Calibrating noise to sensitivity in private data analysis” (2006); “Correlated tuple data release via differential privacy” (Information Sciences, 2021)',
  },
};
