import type { Report } from '../../common/ipc/api.js';
import { reviewProblems } from '../../common/review/release-review.js';
import { Callout } from './fields.js';

const TITLES = {
  failed: 'The disclosure review fails: this release is not publishable.',
  accepted: 'The disclosure review fails; the job accepts the failed checks.',
  passed: 'The disclosure review passes.',
} as const;

/**
 * The release-level disclosure review at the top of the risk preview and the results: red when it
 * fails (the run writes nothing unless the job's review.acknowledge accepts each failed check), amber
 * when accepted or when a warning check fails, with each finding and its fix, and what the method
 * assumes the attacker knows.
 */
export function ReviewVerdict({ report }: { report: Report }) {
  const review = report.review;
  if (!review) return null;
  const problems = reviewProblems(review.checks);
  const tone = review.verdict === 'failed' ? 'error' : review.verdict === 'accepted' || problems.length > 0 ? 'warn' : 'ok';
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
      {review.verdict === 'failed' && <p>To release it anyway, name each failed check with your reason in the job’s review.acknowledge (the reason stays in the internal report).</p>}
    </Callout>
  );
}
