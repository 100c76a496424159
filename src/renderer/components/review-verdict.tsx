import { useId } from 'react';
import type { Report } from '../../common/ipc/api.js';
import { reviewProblems } from '../../common/review/release-review.js';
import { Callout } from './fields.js';

const TITLES = {
  failed: 'The disclosure review fails: this release is not publishable.',
  accepted: 'The disclosure review fails; you accept the failed checks.',
  passed: 'The disclosure review passes.',
} as const;

export interface ReviewAcceptance {
  readonly checks: readonly string[];
  readonly reason: string;
}

/**
 * The release-level disclosure review at the top of the risk preview and the results: red when it
 * fails (the run writes nothing), amber when accepted or when a warning check fails, with each finding
 * and its fix, and what the method assumes the attacker knows. With `onAccept`, a failed review offers
 * "release anyway" behind an explicit choice and a reason (the job's review.acknowledge).
 */
export function ReviewVerdict(props: { report: Report; acceptance?: ReviewAcceptance | undefined; onAccept?: (acceptance: ReviewAcceptance | undefined) => void }) {
  const { report, acceptance, onAccept } = props;
  const id = useId();
  const review = report.review;
  if (!review) return null;
  const problems = reviewProblems(review.checks);
  const tone = review.verdict === 'failed' ? 'error' : review.verdict === 'accepted' || problems.length > 0 ? 'warn' : 'ok';
  // The checks the run would refuse on, accepted or not yet.
  const failing = review.checks.filter((c) => !c.passed && c.severity === 'fail').map((c) => c.check);
  return (
    <Callout tone={tone} title={TITLES[review.verdict]}>
      {review.basis === 'projected' && 'Projected from the input; the run reviews the released files themselves. '}
      {review.attacker}
      {problems.length > 0 && (
        <ul>
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {onAccept && failing.length > 0 && (
        <div className="review-acceptance">
          <label>
            <input type="checkbox" checked={acceptance !== undefined} onChange={(e) => onAccept(e.target.checked ? { checks: failing, reason: acceptance?.reason ?? '' } : undefined)} /> Release anyway: I accept the failed checks ({failing.join(', ')})
          </label>
          {acceptance && (
            <label htmlFor={id}>
              Your reason (kept in the internal report; the published report says you accepted the risk)
              <input id={id} type="text" value={acceptance.reason} onChange={(e) => onAccept({ checks: failing, reason: e.target.value })} />
            </label>
          )}
        </div>
      )}
      {review.verdict === 'failed' && !onAccept && <p>To release it anyway, name each failed check with your reason in the job’s review.acknowledge (the reason stays in the internal report).</p>}
    </Callout>
  );
}
