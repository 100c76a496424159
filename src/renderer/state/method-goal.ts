/**
 * The Method step's questions (what must be protected, what the attacker is assumed to know, whether
 * the release must be records) and the methods they recommend. Pure: everything about a method comes
 * from its definition's metadata (`recommendation`, `differentiallyPrivate`, `compare.releasesRecords`,
 * `chain`), so a new mechanism is recommended, or not, by what its own folder says.
 */
import type { AnyMechanismDefinition } from '../../common/mechanism.js';
import { MECHANISM_DEFINITIONS, type MechanismType } from '../../mechanisms/definitions.js';

export type ProtectGoal = 'identity' | 'attribute' | 'both' | 'counts';
export type AttackerAssumption = 'release-only' | 'population' | 'membership' | 'anything';
export type ReleaseForm = 'records' | 'tables';

export interface GoalAnswers {
  readonly protect?: ProtectGoal;
  readonly attacker?: AttackerAssumption;
  readonly release?: ReleaseForm;
}

export interface GoalOption<T extends string> {
  readonly value: T;
  readonly label: string;
  readonly help: string;
}

export const PROTECT_QUESTION = 'What must the release protect?';
export const PROTECT_OPTIONS: readonly GoalOption<ProtectGoal>[] = [
  { value: 'identity', label: 'Who a record belongs to', help: 'no one may find a person’s record in the file' },
  { value: 'attribute', label: 'A sensitive value of people the attacker already identifies', help: 'a diagnosis or an income; who is in the file is known or not the concern' },
  { value: 'both', label: 'Both: who a record belongs to, then the sensitive value', help: 'what agencies usually need for a file of people' },
  { value: 'counts', label: 'Only counts or tables are published', help: 'no records leave the office' },
];

export const ATTACKER_QUESTION = 'What is the attacker assumed to know?';
export const ATTACKER_OPTIONS: readonly GoalOption<AttackerAssumption>[] = [
  { value: 'membership', label: 'Who is in the file, and their quasi-identifiers', help: 'a neighbour, an employer, a list of participants' },
  { value: 'population', label: 'The quasi-identifiers of everyone in the population', help: 'a voter list or a register, but not who is in the file' },
  { value: 'release-only', label: 'Nothing beyond the release', help: 'only what the published file shows' },
  { value: 'anything', label: 'Anything about anyone but the person sought', help: 'the strongest assumption: differential privacy' },
];

export const RELEASE_QUESTION = 'Must the release be record-level?';
export const RELEASE_OPTIONS: readonly GoalOption<ReleaseForm>[] = [
  { value: 'records', label: 'Yes: one row per person', help: 'microdata' },
  { value: 'tables', label: 'No: tables of counts are enough', help: 'marginals, cross-tables, series' },
];

/** A method recommended for the answers, with the reason from its own metadata. */
export interface Recommended {
  readonly type: MechanismType;
  readonly title: string;
  readonly reason: string;
  readonly bestWhen?: string;
}

export type GoalAdvice =
  /** A question is still unanswered. */
  | { readonly kind: 'unanswered' }
  /** The answers contradict each other, or no method fits them: why, in words. */
  | { readonly kind: 'none'; readonly why: string }
  | {
      readonly kind: 'advice';
      /** Methods that meet the goal on their own, the closest fit first. */
      readonly methods: readonly Recommended[];
      /**
       * Identity and the sensitive value: "protect identity, then the sensitive value", a chain whose
       * second step runs on the first's release; each list the closest fit first.
       */
      readonly chain?: { readonly identity: readonly Recommended[]; readonly attribute: readonly Recommended[] };
      /** What the answers imply beyond the choice of method. */
      readonly notes: readonly string[];
      /** The method the step selects when the chosen one does not fit: the chain's identity step, else the first method. */
      readonly preselect: MechanismType;
    };

/** How much the attacker is assumed to know, weakest first. */
const STRENGTH: Readonly<Record<AttackerAssumption, number>> = { 'release-only': 0, population: 1, membership: 2, anything: 3 };

/**
 * The strongest attacker a method's guarantee is stated against: differential privacy holds whatever
 * else the attacker knows; every other method assumes at most that the attacker knows who is in the
 * file and their quasi-identifiers (its `attackerKnowledge` sentence).
 */
export function withstands(definition: AnyMechanismDefinition): AttackerAssumption {
  return definition.metadata.differentiallyPrivate ? 'anything' : 'membership';
}

/** The answers after one more: only counts published means no records, which answers the last question. */
export function answerGoal(previous: GoalAnswers, answer: GoalAnswers): GoalAnswers {
  return { ...previous, ...answer, ...(answer.protect === 'counts' && answer.release === undefined ? { release: 'tables' as const } : {}) };
}

const COUNTS_AND_RECORDS = 'Only counts or tables are published, yet the release must be record-level: change one of the two answers.';

/**
 * Why a method does not fit the answers as a method on its own, in words after its title, or undefined
 * when it fits. For "both", a method that can be the chain's identity step fits (the step selects it;
 * the sensitive value's step follows), and one that can only be its second step says so.
 */
export function misfit(definition: AnyMechanismDefinition, answers: Required<GoalAnswers>): string | undefined {
  const { metadata, compare, chain } = definition;
  const guards = metadata.recommendation.guards;
  if (answers.protect === 'counts' && answers.release === 'records') return COUNTS_AND_RECORDS;
  if (answers.release === 'records' && !compare.releasesRecords) return 'publishes tables of counts, not records';
  if (answers.release === 'tables' && compare.releasesRecords) return 'publishes records, and tables of counts are enough: they publish less';
  if (STRENGTH[withstands(definition)] < STRENGTH[answers.attacker]) return 'assumes the attacker knows at most who is in the file and their quasi-identifiers: only a differentially private method holds against more';
  // Tables of counts hold no record to find and no value tied to a row; differential privacy covers every value of a person's record.
  const coversAll = guards === 'counts' || metadata.differentiallyPrivate;
  if (coversAll) return undefined;
  switch (answers.protect) {
    case 'counts':
      return 'publishes records';
    case 'identity':
      return guards === 'identity' ? undefined : 'protects the sensitive value only: the quasi-identifiers are published as collected, so records can still be found';
    case 'attribute':
      return guards === 'attribute' ? undefined : 'protects identity only: the sensitive values are published as collected within their classes';
    case 'both':
      if (chain.role === 'identity') return undefined;
      if (chain.role === 'attribute') return 'protects the sensitive value only: it is the second step, after an identity step';
      return guards === 'identity' ? `protects identity only, and cannot be followed by a step that protects the sensitive value: it ${chain.why}` : `protects the sensitive value only, and cannot follow a step that protects identity: it ${chain.why}`;
  }
}

function complete(answers: GoalAnswers): answers is Required<GoalAnswers> {
  return answers.protect !== undefined && answers.attacker !== undefined && answers.release !== undefined;
}

/** Closest fit first: the weakest guarantee that holds against the assumed attacker (it costs the least detail), then the general choices before the particular ones, then the registry's order. */
function ranked(definitions: readonly AnyMechanismDefinition[]): Recommended[] {
  return definitions
    .map((d, order) => ({ d, order }))
    .sort((a, b) => STRENGTH[withstands(a.d)] - STRENGTH[withstands(b.d)] || Number(a.d.metadata.recommendation.bestWhen !== undefined) - Number(b.d.metadata.recommendation.bestWhen !== undefined) || a.order - b.order)
    .map(({ d: { metadata: m } }) => ({ type: m.type as MechanismType, title: m.title, reason: m.recommendation.reason, ...(m.recommendation.bestWhen !== undefined ? { bestWhen: m.recommendation.bestWhen } : {}) }));
}

function notesFor(answers: Required<GoalAnswers>): string[] {
  const notes: string[] = [];
  const identity = answers.protect === 'identity' || answers.protect === 'both';
  if (answers.protect === 'attribute' && answers.release === 'records')
    notes.push('A method that protects only the sensitive value publishes the quasi-identifiers (age, postcode…) as collected: the disclosure review still measures how identifiable the records are, and fails a file where many are unique.');
  if (answers.attacker === 'population' && answers.release === 'records')
    notes.push('State the sampling fraction (the share of the population the file holds) on the Risk preview step, so the review measures re-identification against the population rather than the file alone.');
  if (answers.attacker === 'release-only' && identity && answers.release === 'records')
    notes.push('Even with nothing but the release, someone can recognize a person from a rare combination of values (the only 97-year-old of a village): the Risk preview shows how many records are unique.');
  if (answers.attacker === 'anything') notes.push('Only a differentially private method holds against an attacker who may know everything else about everyone; the others assume less.');
  return notes;
}

/** The methods the answers recommend, from the given definitions (the registry's by default). */
export function adviseMethods(answers: GoalAnswers, definitions: readonly AnyMechanismDefinition[] = MECHANISM_DEFINITIONS): GoalAdvice {
  if (answers.protect === 'counts' && answers.release === 'records') return { kind: 'none', why: COUNTS_AND_RECORDS };
  if (!complete(answers)) return { kind: 'unanswered' };
  const fitting = definitions.filter((d) => misfit(d, answers) === undefined);
  if (answers.protect === 'both') {
    const identity = ranked(fitting.filter((d) => d.chain.role === 'identity'));
    // The second step fits as the first does: records, and the assumed attacker; it protects the sensitive value of the records it is given.
    const attribute = ranked(definitions.filter((d) => d.chain.role === 'attribute' && d.compare.releasesRecords && answers.release === 'records' && STRENGTH[withstands(d)] >= STRENGTH[answers.attacker]));
    const methods = ranked(fitting.filter((d) => d.chain.role !== 'identity'));
    const chain = identity.length > 0 && attribute.length > 0 ? { identity, attribute } : undefined;
    const first = chain?.identity[0] ?? methods[0];
    if (!first) return { kind: 'none', why: 'No method here protects both identity and the sensitive value against an attacker who may know this much.' };
    return { kind: 'advice', methods, ...(chain ? { chain } : {}), notes: notesFor(answers), preselect: first.type };
  }
  const methods = ranked(fitting);
  if (!methods[0]) return { kind: 'none', why: 'No method here fits these answers.' };
  return { kind: 'advice', methods, notes: notesFor(answers), preselect: methods[0].type };
}

/** The methods the step keeps selected when the answers change: the ones it recommends on their own or as the chain's first step. */
export function selectable(advice: GoalAdvice): readonly MechanismType[] {
  return advice.kind === 'advice' ? [...(advice.chain?.identity ?? []), ...advice.methods].map((r) => r.type) : [];
}
