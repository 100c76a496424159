import type { Report } from '../../common/report/report-model.js';
import { reviewProblems } from '../../common/review/release-review.js';
import type { Job } from '../../mechanisms/definitions.js';
import { asPublished } from '../run-job.js';
import { reviewRelease, type ReviewedTable } from '../review/review-release.js';

/**
 * The published disclosure review computed again from the released tables (as read back), the
 * published job (its `review` key) and the roles the report gives the released columns: every figure
 * must be the one published, and the verdict must not be "failed" (a release whose failed checks the
 * job accepts passes, and says so). A seeded test release is written whatever its review, and the
 * randomness check already refuses it: its failed review is reported, not counted twice.
 */
export function checkReview(job: Job, report: Report, tables: readonly ReviewedTable[], identityStep?: Job): string | { ok: boolean; detail: string } {
  const published = report.review;
  if (!published) return { ok: false, detail: 'report.json has no disclosure review: the release was not reviewed' };
  const roles = new Map(report.input.columns.flatMap((c) => (c.role === 'identifier' ? [] : [[c.name, c.role] as const])));
  const { acknowledgements: _acknowledgements, ...again } = reviewRelease(job, tables, roles, identityStep);
  if (JSON.stringify(asPublished({ review: again } as unknown as Report)) !== JSON.stringify(asPublished({ review: published } as unknown as Report))) {
    return { ok: false, detail: 'computed again from the released files, the review differs from the one report.json publishes' };
  }
  const failed = reviewProblems(published.checks.filter((c) => c.severity === 'fail'));
  if (published.verdict === 'passed') return `passed, every figure as computed again from the released files (${published.checks.map((c) => c.check).join(', ')})`;
  if (published.verdict === 'accepted') return `failed and accepted by the custodian (the job's review.acknowledge): ${failed.join('; ')}`;
  if (report.testRandomness) return `FAILED (reported only: a seeded test release, never publishable): ${failed.join('; ')}`;
  return { ok: false, detail: `failed: ${failed.join('; ')}` };
}
