import { z } from 'zod';
import { domains, probability } from '../../common/job/job-parts.js';
import type { MechanismDefinition, ReportFigures } from '../../common/mechanism.js';
import { comparison } from './compare.js';
import { randomizedView } from '../../common/report/randomized-view.js';
import { attack, riskTest } from '../../common/randomized-response/job-parts.js';

export const schema = z
  .object({
    type: z.literal('uniform-perturbation'),
    retention: probability('retention').optional(),
    rho1: probability('rho1').optional(),
    rho2: probability('rho2').optional(),
    domains,
    // The (ε,δ) test that measures which micro groups leak (the defaults of Wang, Han, Fu, Example 1).
    epsilon: riskTest.epsilon.default(0.5),
    delta: riskTest.delta.default(0.3),
    bound: riskTest.bound,
    attack,
  })
  .strict();


export type UniformPerturbationSpec = z.output<typeof schema>;

/** Retention is given directly or derived from a ρ1–ρ2 target, never both. */
function refine(m: UniformPerturbationSpec, ctx: z.RefinementCtx): void {
  const hasRho = m.rho1 !== undefined || m.rho2 !== undefined;
  if (m.retention !== undefined && hasRho) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['retention'], message: 'give either retention or rho1 and rho2, not both' });
  } else if (m.retention === undefined && !hasRho) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['retention'], message: 'give retention, or rho1 and rho2 to derive it' });
  } else if (hasRho && (m.rho1 === undefined || m.rho2 === undefined)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: [m.rho1 === undefined ? 'rho1' : 'rho2'], message: 'rho1 and rho2 go together' });
  } else if (hasRho && m.rho1! >= m.rho2!) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['rho2'], message: 'rho2 must be greater than rho1' });
  }
}


/** How the reports set its figures (its release is plain perturbation, the baseline of the others): its metadata, and its view's option. */
const reportFigures: ReportFigures = { utilityQueries: 'sensitive-value', releaseIsPlainPerturbation: true, releaseMeetsReconstructionTest: false };

export const uniformPerturbation: MechanismDefinition<typeof schema> = {
  schema,
  suggested: { type: 'uniform-perturbation', retention: 0.5 },
  domainsOf: 'sensitive',
  refine,
  recodes: false,
  compare: comparison,
  reportView: randomizedView(reportFigures),
  chain: { role: 'attribute' },
  metadata: {
    type: 'uniform-perturbation',
    aliases: ['randomized-response', 'randomised-response', 'rr', 'uniform', 'perturbation', 'frapp'],
    title: 'Uniform perturbation (randomized response)',
    cardTitle: 'Randomized response',
    protects: 'Keeps each sensitive value with probability p and otherwise replaces it by a random value, limiting what one record reveals.',
    costs: 'Cheap and unbiased on aggregates, but groups sharing their other values can still be reconstructed: the risk preview shows how many.',
    guarantee: 'ρ1–ρ2 privacy (the posterior never exceeds ρ2 when the prior is at most ρ1).',
    sensitiveColumns: 'some',
    differentiallyPrivate: false,
    reportSections: [],
    attackerKnowledge: 'This method assumes the attacker already knows who is in the file and their quasi-identifiers; it protects {sensitive} only (each value kept with probability p, otherwise replaced at random): the quasi-identifiers and the other columns are published as collected.',
    sensitiveRelease: 'protected',
    fieldNames: {},
    recommendation: {
      guards: 'attribute',
      reason: 'Keeps each person\'s sensitive value only with probability p and otherwise replaces it at random, so no single record can be trusted to show a person\'s true value, while totals can still be estimated.',
    },
    reportFigures,
    source: 'Evfimievski, Gehrke, Srikant, “Limiting privacy breaches in privacy preserving data mining” (PODS 2003); Agrawal, Haritsa, Prakash, “FRAPP: a framework for high-accuracy privacy-preserving mining” (2009); Wang, Han, Fu, “Randomization resilient to sensitive reconstruction” (2012) for the leak test',
  },
};
