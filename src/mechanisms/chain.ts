/**
 * A chain of two methods in one job: `"method": [identity step, attribute step]`. The identity step
 * (global recoding, with or without local suppression, or microaggregation) runs on the input; the
 * attribute step (β-privacy, uniform perturbation) runs on the identity step's release, so its
 * groups are the recoded groups and the sensitive column it protects is the one the first step left
 * as collected. Which mechanism may be which step is each definition's `chain`; the rules that make
 * a chain sound are here, each refused with the key to change, before the input is read.
 */
import { z } from 'zod';
import { jobShell, type JobWith } from '../common/job/job-parts.js';
import { own } from '../common/job/names.js';
import { definitionOf, isMechanismType, type Job, type MethodSpec } from './definitions.js';
import { methodSchema } from './job-schema.js';

/** A job whose method is a chain, as parsed. */
export type ChainJob = JobWith<readonly [MethodSpec, MethodSpec]>;

/** The chain's two steps, each as the job it runs as: the job's shell with that step's method. */
export type ChainSteps = readonly [Job, Job];

/** A chain's refusal: the job key to change and why. */
export interface ChainProblem {
  readonly key: string;
  readonly message: string;
}

export const isChainMethod = (method: unknown): method is readonly unknown[] => Array.isArray(method);

/** The chain job's schema: the shell and exactly two methods, each parsed with its own schema. */
export const chainJobSchema = z.object({ ...jobShell, method: z.tuple([methodSchema, methodSchema]) }).strict();

const typeOf = (step: unknown): unknown => (typeof step === 'object' && step !== null && !Array.isArray(step) ? (step as { type?: unknown }).type : undefined);

/**
 * The rules that need only the steps' types, in the order a reader meets them: two steps, an
 * identity step first, an attribute step second, never a differentially private method after a
 * recoding whose choice looked at the data, never a method that is a step of no chain.
 * Undefined: the types make a sound chain (the steps' parameters are parsed after).
 */
export function chainTypeProblem(method: readonly unknown[]): ChainProblem | undefined {
  if (method.length > 2) return { key: 'method[2]', message: `a chain has two steps (an identity method, then an attribute method); this one has ${method.length}` };
  if (method.length < 2) return { key: 'method', message: 'a chain lists two methods: an identity method (global-recoding, microaggregation), then an attribute method (beta-privacy, uniform-perturbation); for one method write the object itself' };
  const types = method.map(typeOf);
  // An unknown type: the step's own schema names it.
  if (types.some((type) => typeof type !== 'string' || !isMechanismType(type))) return undefined;
  const [first, second] = types as [Parameters<typeof definitionOf>[0], Parameters<typeof definitionOf>[0]];
  const one = definitionOf(first);
  const two = definitionOf(second);
  if (two.metadata.differentiallyPrivate && one.chain.role === 'identity') {
    return { key: 'method[1].type', message: `${second} after ${first}: ${second} is differentially private, but ${first} chose its recoding by looking at the data, and that choice is not private: the composed release would have no DP guarantee` };
  }
  if (one.chain.role === 'alone') return { key: 'method[0].type', message: `${first} cannot be a step of a chain: it ${one.chain.why}` };
  if (two.chain.role === 'alone') return { key: 'method[1].type', message: `${second} cannot be a step of a chain: it ${two.chain.why}` };
  if (one.chain.role === 'attribute') {
    return { key: 'method[0].type', message: `${first} protects a sensitive attribute and comes first: the identity step (global-recoding or microaggregation) must come first, so that the attribute method's groups are the released, recoded groups` };
  }
  if (two.chain.role === 'identity') {
    return { key: 'method[1].type', message: `two identity steps (${first}, then ${second}): the second would recode the first's release again, and neither guarantee states what the two give together; the second step protects a sensitive attribute (beta-privacy, uniform-perturbation)` };
  }
  return undefined;
}

/**
 * The rules that need the steps' parameters and the roles: the attribute step must protect a column
 * the identity step leaves as collected. A column the identity step names to change, or the
 * attribute step's own sensitive column when the job does not mark it sensitive (the identity step
 * then treats it as a quasi-identifier and recodes it), is refused; so is an identity step's model of
 * the sensitive values within a class (ℓ-diversity, t-closeness), which the second step's release does not show.
 */
export function chainColumnProblems(job: ChainJob): ChainProblem[] {
  const [first, second] = job.method;
  const problems: ChainProblem[] = [];
  const role = (column: string): string => own(job.attributes, column) ?? 'quasi (the default of a column the job does not name)';
  const identity = definitionOf(first.type).chain;
  if (identity.role === 'identity') {
    for (const { key, column } of (identity.namedColumns as (m: MethodSpec) => readonly { key: string; column: string }[])(first)) {
      if (own(job.attributes, column) === 'sensitive') {
        problems.push({ key: `method[0].${key}`, message: `names "${column}", a sensitive column: the identity step would change the value the attribute step protects; protect it in the second step only` });
      }
    }
    for (const { key, model } of (identity.sensitiveModels as (m: MethodSpec) => readonly { key: string; model: string }[])(first)) {
      problems.push({ key: `method[0].${key}`, message: `${model} constrains the sensitive values within each class, but the second step publishes the sensitive value otherwise (bucketized or perturbed), so the released classes would not show it: protect the sensitive value in the second step only` });
    }
  }
  const named = 'sensitive' in second && typeof second.sensitive === 'string' ? second.sensitive : undefined;
  if (named !== undefined && own(job.attributes, named) !== 'sensitive') {
    problems.push({ key: 'method[1].sensitive', message: `names "${named}", whose role is ${role(named)}: the identity step treats it as a quasi-identifier and recodes it, so the attribute step would protect a recoded value; mark it "sensitive" in attributes` });
  }
  if (!Object.values(job.attributes).includes('sensitive')) {
    problems.push({ key: 'attributes', message: 'a chain\'s second step protects a sensitive column: mark one "sensitive"' });
  }
  return problems;
}

/** Each step as the job it runs as. The attribute step runs on the identity step's release, which holds no identifier column: its roles name none. */
export function chainSteps(job: ChainJob): ChainSteps {
  const { method, ...shell } = job;
  const released = Object.create(null) as Record<string, Job['attributes'][string]>;
  for (const [name, r] of Object.entries(job.attributes)) if (r !== 'identifier') released[name] = r;
  return [
    { ...shell, method: method[0] },
    { ...shell, attributes: released, method: method[1] },
  ];
}
