/**
 * The sentences a chain of two methods publishes, written once from each step's own sentences (its
 * `statement.ts`): the composed guarantee says what each theorem gives, on what, and nothing about
 * the two together beyond the one fact that joins them (the second step keeps every record the
 * first released, with its quasi-identifiers as released). Environment-free: the run and verify
 * write the same words.
 */
import type { PublicStatement } from '../common/report/statement.js';

/** One step as the composed sentences name it: its method's title and its own sentences. */
export interface StepSentences {
  readonly title: string;
  readonly guarantee: PublicStatement['guarantee'];
  readonly summary: readonly string[];
  readonly warnings: readonly string[];
}

/** The guarantee's words of the chain. */
export function chainGuarantee(identity: StepSentences, attribute: StepSentences): PublicStatement['guarantee'] {
  return {
    name: `${identity.guarantee.name}; then ${attribute.guarantee.name} within the released groups`,
    statement:
      `Two steps, the second run on the first step's release. Identity, on the quasi-identifiers (${identity.title}): ${identity.guarantee.statement} ` +
      `The sensitive value, within the groups the first step released (${attribute.title}): ${attribute.guarantee.statement} ` +
      'The second step keeps every record the first step released, with its quasi-identifiers as released, and changes only how the sensitive value is published, so the first step\'s property holds for the quasi-identifiers of this release. ' +
      'Each step\'s statement holds as that step states it; nothing further is claimed for the two together.',
    formula: `(1) ${identity.guarantee.formula}; (2) on the release of (1): ${attribute.guarantee.formula}`,
    source: `${identity.guarantee.source}; ${attribute.guarantee.source}`,
  };
}

/** The summary's first sentence: what ran, in which order. */
export const chainLead = (identity: StepSentences, attribute: StepSentences): string =>
  `Two methods in one job: ${identity.title} protected identity on the quasi-identifiers, then ${attribute.title} protected the sensitive value of the records it released, within its released groups.`;

/**
 * The chain's sentences from its steps' own: the composed guarantee, the lead sentence and each
 * step's summary, and each step's warnings. Given the steps' published sentences it writes the
 * published report's; given their internal ones, the internal report's summary and warnings.
 */
export function chainStatement(identity: StepSentences, attribute: StepSentences): PublicStatement {
  return {
    guarantee: chainGuarantee(identity, attribute),
    summary: [chainLead(identity, attribute), ...identity.summary, ...attribute.summary],
    warnings: [...identity.warnings, ...attribute.warnings],
  };
}

/**
 * What a chain assumes the attacker knows and what it protects, for the disclosure review
 * ({sensitive}: the job's sensitive columns, as each method's `attackerKnowledge`).
 */
export const chainAttackerKnowledge = (identityTitle: string, attributeTitle: string): string =>
  `This chain assumes the attacker knows a person's quasi-identifiers and that the person is in the file: ${identityTitle} hides the person among the records that share the released quasi-identifiers, and within the released groups ${attributeTitle} bounds what the release adds about {sensitive}.`;
