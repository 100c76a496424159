import { blockingChecks, reviewProblems, type ReviewCheck } from '../../common/review/release-review.js';

/**
 * The release failed its disclosure review and the job does not acknowledge the failed checks: the run
 * stops before anything is written (exit 4). Its message names each failed check, what was found and
 * the fix, and how to accept the risk instead (`review.acknowledge` with a reason).
 */
export class ReviewFailedError extends Error {
  readonly checks: readonly ReviewCheck[];

  constructor(checks: readonly ReviewCheck[]) {
    const blocking = blockingChecks(checks);
    super(
      `the release failed its disclosure review, so nothing was written: ${reviewProblems(blocking).join(' — ')}. ` +
        `To publish it all the same, accept each failed check in the job with your reason: "review": { "acknowledge": [${blocking.map((c) => `{ "check": "${c.check}", "reason": "…" }`).join(', ')}] }`,
    );
    this.name = 'ReviewFailedError';
    this.checks = checks;
  }
}
