import type { Fact } from './report-facts.js';
import type { Report } from './report-model.js';

/**
 * The disclosure review as every rendering of a report words it (the HTML, the PDF, the workbook's
 * Report sheet), from the report alone: verify renders each again from report.json and compares
 * bytes, so the three say the same verdict, checks and acknowledgement because they take them from here.
 */

type Review = NonNullable<Report['review']>;

export interface ReviewWords {
  /** "Disclosure review", or "… (projected from the input)" for an assessment. */
  readonly title: string;
  readonly tone: 'ok' | 'bad';
  /** The verdict in words. */
  readonly verdict: string;
  /** What the method assumes the attacker knows and what it protects. */
  readonly attacker: string;
  /** One row per check: its name (and "(warning)"), then its result, finding and fix. */
  readonly checks: readonly Fact[];
  /** With an accepted verdict: that the custodian accepted the stated risk, of which checks (the reasons in the internal variant). */
  readonly acknowledgement?: string;
}

const VERDICTS: Readonly<Record<Review['verdict'], readonly ['ok' | 'bad', string]>> = {
  passed: ['ok', 'passed'],
  failed: ['bad', 'failed: not publishable'],
  accepted: ['bad', 'failed; the custodian accepted the stated risk'],
};

export function reviewWords(review: Review): ReviewWords {
  const [tone, verdict] = VERDICTS[review.verdict];
  const accepted = review.checks.filter((c) => !c.passed && c.acknowledged);
  const reasons = review.acknowledgements ?? [];
  const acknowledgement =
    review.verdict === 'accepted' && accepted.length > 0
      ? `The custodian accepted the stated risk of ${accepted.length === 1 ? 'the failed check' : 'the failed checks'} ${accepted.map((c) => c.check).join(', ')} and released the file all the same` +
        (reasons.length > 0 ? `, for these reasons: ${reasons.map((a) => `${a.check}: ${a.reason}`).join('; ')}.` : '; the reasons are kept in the internal report.')
      : undefined;
  return {
    title: `Disclosure review${review.basis === 'projected' ? ' (projected from the input)' : ''}`,
    tone,
    verdict,
    attacker: review.attacker,
    checks: review.checks.map((c): Fact => [`${c.check}${c.severity === 'warn' ? ' (warning)' : ''}`, `${c.passed ? 'passed' : c.acknowledged ? 'failed, accepted' : 'FAILED'}: ${c.finding}${c.fix ? ` Fix: ${c.fix}` : ''}`]),
    ...(acknowledgement ? { acknowledgement } : {}),
  };
}
