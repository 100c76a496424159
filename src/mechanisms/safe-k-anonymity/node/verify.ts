import { binomialUpperTail, deltaFor } from '../../../common/dp/sampling-amplification.js';
import { minOf } from '../../../common/extremes.js';
import { probabilityText, VERIFY_ALPHA } from '../../../common/stats/significance.js';
import type { VerifyContext } from '../../../jobs/method-kit/node-mechanism.js';
import { countBy, tupleKeys } from '../../../jobs/method-kit/released-table.js';
import { releasedRecords } from '../../../jobs/method-kit/verify-classes.js';
import type { SafeKAnonymitySpec } from '../definition.js';

/** k of every class (one distinct released tuple over every released column) from the released records alone, and the reported δ recomputed from k, β and ε. */
export function verifySafeKAnonymity(ctx: VerifyContext, spec: SafeKAnonymitySpec): void {
  const { checks, report } = ctx;
  const { release } = releasedRecords(ctx);
  const k = report.anonymity?.k ?? (typeof spec.k === 'number' ? spec.k : 0);
  // Strongly-safe: a class is one distinct released tuple over every released column.
  const classes = countBy(tupleKeys(release, release.columns.map((c) => c.name)));
  const small = [...classes.values()].filter((n) => n < k);
  checks.add('k of every class', small.length === 0 && k >= 2, small.length === 0 ? `${classes.size} classes of identical released tuples, the smallest has ${minOf(classes.values())} ≥ k = ${k}` : `${small.length} class(es) below k = ${k}`);
  const beta = report.anonymity?.sampling;
  // With a DP search, δ belongs to the anonymization's share of ε.
  const anon = report.method.derived['epsilonAnonymization'];
  const epsilon = typeof anon === 'number' ? anon : report.guarantee.epsilon;
  if (beta !== undefined && epsilon !== undefined) {
    const delta = deltaFor(k, beta, epsilon).delta;
    const claimed = report.guarantee.delta ?? Number.NaN;
    checks.add('δ recomputed', Math.abs(delta - claimed) <= 1e-12 + 1e-9 * delta, `d(${k}, ${beta}, ${epsilon}) = ${delta.toExponential(6)} (report: ${claimed.toExponential(6)})`);
  }
  if (typeof spec.sampling === 'number') checks.add('sampling rate as the job states', beta === spec.sampling, `β = ${beta ?? 'not stated'} (job: ${spec.sampling})`);
  checkSampleSize(ctx, beta, release.rowCount);
}

/**
 * Safe k-anonymity samples each record with probability β: the sample's size is Bin(N, β) for the
 * N records of the original. Tested on both tails at α/2 with the exact binomial tails, and the
 * released records must be among the sampled ones. The sample's size is a fact of the input, kept
 * in the internal report only.
 */
function checkSampleSize(ctx: VerifyContext, beta: number | undefined, released: number): void {
  const name = `sample size against β (α = ${VERIFY_ALPHA})`;
  if (!ctx.original) {
    ctx.checks.notChecked(name, '--original: the sample is tested against Bin(records, β)');
    return;
  }
  const sampled = ctx.internal?.anonymity?.sampled;
  if (sampled === undefined || beta === undefined) {
    ctx.checks.add(name, false, sampled === undefined ? 'the internal report states no sample size' : 'report.json states no sampling rate β');
    return;
  }
  const n = ctx.original.rowCount;
  const above = binomialUpperTail(n, beta, sampled);
  const below = binomialUpperTail(n, 1 - beta, n - sampled);
  const ok = sampled <= n && released <= sampled && Math.min(above, below) >= VERIFY_ALPHA / 2;
  const why = released > sampled ? `: ${released} records released from a sample of ${sampled}` : ok ? '' : ': not a plausible Bernoulli sample at this β';
  ctx.checks.add(
    name,
    ok,
    `${sampled} of ${n} records sampled at β = ${beta} (expected ${(n * beta).toFixed(1)}; exact binomial tails ${probabilityText(Math.log(below))} at or below, ${probabilityText(Math.log(above))} at or above), ${released} released${why}`,
  );
}
