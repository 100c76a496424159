import { binomialUpperTail, deltaFor } from '../../common/dp/sampling-amplification.js';
import { probabilityText, VERIFY_ALPHA } from '../../common/stats/significance.js';
import type { PartitionedRecodingSpec } from '../../mechanisms/partitioned-recoding/definition.js';
import type { SafeKAnonymitySpec } from '../../mechanisms/safe-k-anonymity/definition.js';
import type { Table } from '../../common/table/table.js';
import { countBy, readReleased, tupleKeys } from './released-table.js';
import type { VerifyContext } from './node-mechanism.js';
import { minOf } from '../../common/extremes.js';

/**
 * A recoding's released records read back as an auditor would, with the checks every recoding
 * shares: the record count the report gives, and no identifier column. Returns the release and
 * each input column's role.
 */
export function releasedRecords(ctx: VerifyContext): { release: Table; roles: Map<string, string> } {
  const { checks, report, dir, job } = ctx;
  const table = ctx.quasiTable ?? { stem: 'release', sheetName: 'Release' };
  const release = readReleased(dir, table.stem, table.sheetName, job.output.delimiter);
  const roles = new Map<string, string>(report.input.columns.map((c) => [c.name, c.role]));
  checks.add('record count', release.rowCount === report.output?.rows, `${release.rowCount} released records (report: ${report.output?.rows})`);
  // In a chain the table is the second step's, with its own columns: that step's checks cover them.
  if (!ctx.quasiTable) checks.add(...identifierCheck(ctx, release, ctx.job.method.type === 'partitioned-recoding' ? ['part'] : []));
  return { release, roles };
}

/**
 * No identifier released. The published report lists the released columns only (an identifier's
 * name is not published), so a released column it does not list fails, as does one the internal
 * report, when at hand, marks as an identifier. `added`: columns the method makes itself.
 */
export function identifierCheck(ctx: Pick<VerifyContext, 'report' | 'internal'>, release: Table, added: readonly string[]): [string, boolean, string] {
  const listed = new Set([...ctx.report.input.columns.filter((c) => c.role !== 'identifier').map((c) => c.name), ...added]);
  const identifiers = new Set((ctx.internal?.input.columns ?? ctx.report.input.columns).filter((c) => c.role === 'identifier').map((c) => c.name));
  const wrong = release.columns.filter((c) => identifiers.has(c.name) || !listed.has(c.name)).map((c) => c.name);
  return ['no identifier released', wrong.length === 0, wrong.length === 0 ? 'every released column is one the report lists as released' : `released but not listed as a released column: ${wrong.join(', ')}`];
}

/** k of every class from the released records alone, and the reported δ recomputed from k, β and ε. */
export function verifyClasses(ctx: VerifyContext, spec: SafeKAnonymitySpec | PartitionedRecodingSpec): void {
  const { checks, report } = ctx;
  const { release, roles } = releasedRecords(ctx);
  if (spec.type === 'safe-k-anonymity') {
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
    return;
  }
  const quasi = release.columns.filter((c) => roles.get(c.name) === 'quasi').map((c) => c.name);
  const byPart = release.columns.some((c) => c.name === 'part') ? ['part', ...quasi] : quasi;
  const classes = countBy(tupleKeys(release, byPart));
  if (spec.model.type === 'k-anonymity') {
    const k = spec.model.k;
    const small = [...classes.values()].filter((n) => n < k);
    checks.add('k of every class in every part', small.length === 0, small.length === 0 ? `${classes.size} classes, the smallest has ${minOf(classes.values())} ≥ k = ${k}` : `${small.length} class(es) below k = ${k}`);
  } else {
    const sensitive = report.input.columns.find((c) => c.role === 'sensitive')!.name;
    const keys = tupleKeys(release, byPart);
    const values = tupleKeys(release, [sensitive]);
    const distinct = new Map<string, Set<string>>();
    keys.forEach((key, i) => {
      let set = distinct.get(key);
      if (!set) distinct.set(key, (set = new Set()));
      set.add(values[i]!);
    });
    if (spec.model.type === 'l-diversity') {
      const l = spec.model.l;
      const weak = [...distinct.values()].filter((s) => s.size < l);
      checks.add('ℓ-diversity of every class', weak.length === 0, weak.length === 0 ? `${distinct.size} classes, each with at least ${l} distinct values` : `${weak.length} class(es) with fewer than ${l} distinct values`);
    } else {
      // The reference distribution is the whole part's, suppressed records included, which the release does not show.
      checks.add('t-closeness (not re-checked)', true, 'the distance needs each part\'s full distribution, suppressed records included, which only the original holds; not verifiable from the release alone');
    }
  }
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
