/**
 * The significance of verify's statistical tests of a release against the original: a correct
 * release fails a test with probability at most α. Where a test looks at both tails, each tail
 * gets α/2, so the test as a whole keeps α.
 */
export const VERIFY_ALPHA = 1e-6;

/** ln(α/2): a tail whose log-probability (or log-bound) is below this fails. */
export const LOG_HALF_ALPHA = Math.log(VERIFY_ALPHA / 2);

/** A probability (or a bound on one) given as its natural logarithm, in words for a check's detail. */
export function probabilityText(logP: number): string {
  if (logP >= Math.log(0.001)) return Math.exp(logP).toPrecision(3);
  const log10 = logP / Math.LN10;
  if (log10 < -300) return `10^${Math.floor(log10)}`;
  return Math.exp(logP).toExponential(2);
}
