import type { CandidateJobMessage } from '../../common/ipc/compare-api.js';
import type { CompareAxis as MechanismCompareAxis, MethodObject } from '../../common/mechanism.js';
import { definitionOf, MECHANISM_TYPES, type MechanismType } from '../../mechanisms/definitions.js';
import { jobSchema } from '../../mechanisms/job-schema.js';
import { plainFailure, plainMessage, specificIssues } from '../components/plain-messages.js';
import { buildJob, jobWithMethodOf, type JobFile } from './job.js';
import { chainJobSchema, chainTypeProblem, isChainMethod } from '../../mechanisms/chain.js';
import { chainTitle, type ChainChoice } from './chain-choice.js';
import { domainOfText, proposedValues } from '../components/domain-fields.js';
import { named, own } from '../../common/job/names.js';
import type { DomainSpec } from '../../common/job/job-parts.js';
import type { WizardState } from './wizard-state.js';
import type { UtilityAxis } from '../../common/compare/axes.js';

/** One parameter of a method the Compare step varies (the mechanism's own `compare.axis`), and the method. */
export interface CompareAxis extends MechanismCompareAxis {
  readonly method: MechanismType;
}

/** The methods `custos compare` measures (record releases), each with the parameter its compare part names, in the registry's order. */
export const COMPARE_AXES: readonly CompareAxis[] = MECHANISM_TYPES.flatMap((method) => {
  const compare = definitionOf(method).compare;
  return compare.releasesRecords ? [{ ...compare.axis, method }] : [];
});

/** Why a method is not among the candidates ("releases noisy answers, not records"), or undefined when it is. */
export function notComparedBecause(method: MechanismType): string | undefined {
  const compare = definitionOf(method).compare;
  return compare.releasesRecords ? undefined : compare.why;
}

/** A row of the step's candidate table: a method, whether it takes part, and the values written. */
export interface CandidateFamily {
  readonly method: MechanismType;
  readonly included: boolean;
  readonly values: string;
}

export function initialFamilies(current: MechanismType): CandidateFamily[] {
  // The methods whose axis is ticked by default (three kinds of protection), plus the current one.
  return COMPARE_AXES.map((a) => ({ method: a.method, included: a.includedByDefault || a.method === current, values: a.suggested }));
}

export function axisOf(method: MechanismType): CompareAxis | undefined {
  return COMPARE_AXES.find((a) => a.method === method);
}

/** The values written ("0.3, 0.5, 0.7"), or what is wrong with them. */
export function parseValues(axis: CompareAxis, text: string): { values: number[] } | { problem: string } {
  const parts = text.split(/[,;\s]+/).filter((t) => t !== '');
  if (parts.length === 0) return { problem: 'write at least one value' };
  const values: number[] = [];
  for (const p of parts) {
    const v = Number(p);
    if (!Number.isFinite(v)) return { problem: `“${p}” is not a number` };
    if (axis.integer && !Number.isInteger(v)) return { problem: `${axis.words} is a whole number; “${p}” is not` };
    if (v < axis.min || v > axis.max) return { problem: `${axis.words} is between ${axis.min} and ${axis.max}; “${p}” is not` };
    values.push(v);
  }
  return { values: [...new Set(values)] };
}

export function shortTitle(method: MechanismType): string {
  // The long card titles list the models in brackets; a candidate's label needs the method's name only.
  return definitionOf(method).metadata.cardTitle.replace(/ \(.*\)$/, '');
}

/** A candidate the page sends, with the method object "Use this setting" fills the job with. */
export interface BuiltCandidate extends CandidateJobMessage {
  readonly method: MechanismType;
  /** The current setting when it is a chain (compare measures it as one candidate); `method` is then its identity step. */
  readonly chain?: ChainChoice;
  readonly job: JobFile & Record<string, unknown>;
}

/**
 * The candidates: the current setting first (when asked for), then one per
 * value of each included method's parameter, set into that method's form as
 * last filled in (so hierarchies and other settings are the wizard's).
 */
export function buildCandidates(state: WizardState, families: readonly CandidateFamily[], includeCurrent: boolean, utility?: CandidateUtility): BuiltCandidate[] {
  const out: BuiltCandidate[] = [];
  const measured = utilityKeyOf(utility);
  // A method compare cannot measure (dp-counts releases answers, not records) has no axis and is not a candidate.
  if (includeCurrent && state.chain) out.push({ label: `current setting (${chainTitle(state.chain)})`, method: state.method, chain: state.chain, job: { ...buildJob(state), ...measured } as JobFile & Record<string, unknown>, grid: [] });
  else if (includeCurrent && axisOf(state.method)) out.push({ label: `current setting (${shortTitle(state.method)})`, method: state.method, job: { ...buildJob(state), ...measured } as JobFile & Record<string, unknown>, grid: [] });
  for (const f of families) {
    const axis = axisOf(f.method);
    if (!f.included || !axis) continue;
    const parsed = parseValues(axis, f.values);
    if (!('values' in parsed)) continue;
    const base = jobWithMethodOf(state, f.method);
    const decided = withDomainDecisions(state, f.method, base.method as MethodObject);
    for (const v of parsed.values) {
      const method = axis.apply(decided, v);
      out.push({ label: `${shortTitle(f.method)}, ${axis.words} ${v}`, method: f.method, job: { ...base, method, ...measured } as JobFile & Record<string, unknown>, grid: [{ key: axis.key, value: String(v) }] });
    }
  }
  return out;
}

/**
 * The utility axis the Compare step plots, and the classifier's target when it plots accuracy: anything
 * but the query error asks every candidate's job for the analysis-based utility (its `utility` key).
 */
export interface CandidateUtility {
  readonly axis: UtilityAxis['key'];
  readonly target?: string;
}

function utilityKeyOf(utility: CandidateUtility | undefined): { utility?: { target?: string } } {
  if (!utility || utility.axis === 'query-error') return {};
  return { utility: utility.axis === 'accuracy-lost' && utility.target ? { target: utility.target } : {} };
}

/** The columns a classifier can learn to predict: those every candidate releases (not identifiers), in the file's order. */
export function targetChoices(state: WizardState): string[] {
  return (state.file?.columns ?? []).map((c) => c.name).filter((name) => own(state.roles, name) !== 'identifier');
}

/** The methods whose sensitive columns need a domain decision (the run refuses a column without one), as each definition says. */
const SENSITIVE_DOMAIN_METHODS: readonly MechanismType[] = MECHANISM_TYPES.filter((t) => definitionOf(t).domainsOf === 'sensitive');

/**
 * A method whose form was not opened has no domain decision for a sensitive column: its candidate takes
 * the decision another method's form holds for the column, else the file's values as the form would
 * propose them (“Use this setting” brings them into the form, to review). Without either, the
 * candidate stays undecided and the run skips it, saying why.
 */
function withDomainDecisions(state: WizardState, type: MechanismType, method: MethodObject): MethodObject {
  if (!SENSITIVE_DOMAIN_METHODS.includes(type)) return method;
  const existing = (method['domains'] ?? {}) as Record<string, DomainSpec>;
  const sensitive = Object.keys(state.roles).filter((c) => own(state.roles, c) === 'sensitive');
  const entries: [string, DomainSpec][] = Object.entries(existing);
  for (const column of sensitive) {
    if (entries.some(([c]) => c === column)) continue;
    const fromForms = SENSITIVE_DOMAIN_METHODS.map((t) => domainOfText(own((state.drafts[t] as { domains: Readonly<Record<string, string>> }).domains, column) ?? '')).find((d) => d !== undefined);
    const proposed = fromForms ?? (state.file ? proposedValues(column, state.file) : undefined);
    if (proposed) entries.push([column, proposed]);
  }
  return entries.length > 0 ? { ...method, domains: named(entries) } : method;
}

/**
 * Why a candidate cannot run, found before the comparison starts where that is
 * cheap: its job as the run's schema reads it (the parameters, a method's own
 * rules such as microaggregation's columns), in the wizard's words. The host
 * checks again, and a candidate its method refuses while running is reported
 * in the results; this says beforehand which will be skipped.
 */
export function cannotRunBefore(candidate: BuiltCandidate): string | undefined {
  // A chain is one candidate: its steps must make a chain, and its job reads with the chain's schema.
  const typeProblem = isChainMethod(candidate.job.method) ? chainTypeProblem(candidate.job.method) : undefined;
  if (typeProblem) return plainFailure({ message: typeProblem.message, key: typeProblem.key }, candidate.method);
  const parsed = (isChainMethod(candidate.job.method) ? chainJobSchema : jobSchema).safeParse(candidate.job);
  if (parsed.success) return undefined;
  const issue = specificIssues(parsed.error.issues)[0];
  if (!issue) return 'the job does not read';
  // As the job loader names keys: "method.columns", "method.hierarchies.age[2]".
  const key = issue.path.reduce<string>((k, part) => (typeof part === 'number' ? `${k}[${part}]` : k ? `${k}.${part}` : part), '');
  return plainFailure({ message: plainMessage(issue), key }, candidate.method);
}
