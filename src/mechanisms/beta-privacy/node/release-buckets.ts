import { formatRational, toNumber, type Rational } from '../../../common/exact/rational.js';
import { randomPermutation } from '../../../common/random/draws.js';
import type { BetaReport, InferenceBound } from '../../../common/report/report-model.js';
import { JobError } from '../../../common/job/job-error.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import type { ReleasedTable } from '../../../jobs/method-kit/outcome.js';
import type { Plan } from '../../../jobs/method-kit/plan.js';
import { bucketsFromClasses, materializeBuckets, matrixFromBuckets, maxInference, type Bucketization } from '../bucketize.js';
import { worstPosterior } from '../corruption-attack.js';
import type { BetaPrivacySpec } from '../definition.js';
import { addFakeValues, FakeValueError } from '../fake-values.js';
import { bucketPoolRelativeError, drawDisjunctivePool } from '../query-pool.js';
import type { BucketSetting } from './bucket-setting.js';
import { quasiIdentifierTable, sensitiveTable } from './release-view.js';
import { maxOf } from '../../../common/extremes.js';
import { formatCount } from '../../../common/format/numbers.js';

/** Query-pool work is rows × queries; above this the pool is shortened and the report says so. */
const POOL_WORK_LIMIT = 3e8;

function bucketValueCounts(b: Bucketization, bucket: number): { real: number[]; fakes: number } {
  const real: number[] = [];
  let fakes = 0;
  for (let e = b.stOffsets[bucket]!; e < b.stOffsets[bucket + 1]!; e++) {
    if (b.stFake[e]) fakes++;
    else real.push(b.stCount[e]!);
  }
  return { real, fakes };
}

/** Worst posterior over every bucket for c = 1 … largest size − 1, with and without the fakes. */
function corruptionCurve(b: Bucketization): BetaReport['corruption'] {
  const signatures = new Map<string, { real: number[]; fakes: number }>();
  for (let bucket = 0; bucket < b.bucketCount; bucket++) {
    const v = bucketValueCounts(b, bucket);
    signatures.set(`${[...v.real].sort((x, y) => x - y).join(',')}|${v.fakes}`, v);
  }
  const largest = maxOf([...signatures.values()].map((v) => v.real.reduce((a, c) => a + c, 0)));
  const curve: { corrupted: number; withoutFakes: number; withFakes: number }[] = [];
  for (let c = 1; c < largest; c++) {
    let without = 0;
    let withFakes = 0;
    for (const v of signatures.values()) {
      if (v.real.reduce((a, x) => a + x, 0) <= c) continue;
      without = Math.max(without, worstPosterior(v.real, 0, c));
      withFakes = Math.max(withFakes, worstPosterior(v.real, v.fakes, c));
    }
    curve.push({ corrupted: c, withoutFakes: without, withFakes });
  }
  return curve;
}

/** Per bucket, the sensitive values some of its rows rule out by a declared negative association. */
function exclusionsOf(spec: BetaPrivacySpec, plan: Plan, values: readonly string[], b: Bucketization): ((bucket: number) => ReadonlySet<number>) | undefined {
  const entries = Object.entries(spec.fakeExclusions);
  if (entries.length === 0) return undefined;
  const banned = new Map<number, Set<number>>();
  for (const [columnName, byValue] of entries) {
    const column = plan.nonSensitive.find((c) => c.name === columnName);
    if (!column) throw new JobError(`"${columnName}" is not a released non-sensitive column`, `method.fakeExclusions.${columnName}`);
    const rules = new Map<number, number[]>();
    for (const [qiValue, excluded] of Object.entries(byValue)) {
      const code = column.dictionary.indexOf(qiValue);
      if (code < 1) throw new JobError(`"${qiValue}" does not occur in "${columnName}"`, `method.fakeExclusions.${columnName}.${qiValue}`);
      rules.set(code, excluded.map((v) => {
        const index = values.indexOf(v);
        if (index < 0) throw new JobError(`"${v}" is not a sensitive value`, `method.fakeExclusions.${columnName}.${qiValue}`);
        return index;
      }));
    }
    column.codes.forEach((code, r) => {
      const rule = rules.get(code);
      if (!rule) return;
      const bucket = b.bucketOfRow[r]!;
      let set = banned.get(bucket);
      if (!set) banned.set(bucket, (set = new Set()));
      for (const v of rule) set.add(v);
    });
  }
  const none: ReadonlySet<number> = new Set();
  return (bucket) => banned.get(bucket) ?? none;
}

/** β-privacy bucketization (Wang, Wang, Fu, Wong (β-privacy)): QI table with bucket ids plus a sensitive table. */

/** What the release adds to the report: its tables, the inference bound per value, its query error and the corruption curve. */
export interface BucketRelease {
  readonly releases: readonly ReleasedTable[];
  readonly maxInference: Record<string, InferenceBound>;
  readonly relativeError: { readonly release?: number; readonly anatomy?: number };
  readonly poolNote: string;
  readonly corruption: BetaReport['corruption'];
}

/**
 * Draws the buckets (rows assigned at random within the chosen sizes, fake
 * values added), publishes QIT and ST in a random order, and measures the
 * release: the inference bound of every value, the query error against the
 * Anatomy baseline, the corruption attack.
 */
export function releaseBuckets(ctx: MethodContext, spec: BetaPrivacySpec, plan: Plan, sensitive: string, domain: readonly string[], values: Uint32Array, betas: readonly Rational[], setting: BucketSetting): BucketRelease {
  const { anatomy, chosenClasses } = setting;
  const m = domain.length;
  const total = values.length;
  const releases: ReleasedTable[] = [];
  ctx.progress('release', 0);
  const buckets = spec.algorithm === 'anatomy' ? matrixFromBuckets(anatomy!, m) : bucketsFromClasses(chosenClasses!);
  let bucketization = materializeBuckets(ctx.random, values, m, buckets);
  try {
    bucketization = addFakeValues(ctx.random, bucketization, m, spec.fakeValues, exclusionsOf(spec, plan, domain, bucketization));
  } catch (error) {
    if (error instanceof FakeValueError) throw new JobError(error.message, 'method.fakeValues');
    throw error;
  }
  const order = randomPermutation(ctx.random, total);
  releases.push({ stem: 'qit', sheetName: 'QIT', table: quasiIdentifierTable(plan, bucketization, order) });
  releases.push({ stem: 'st', sheetName: 'ST', table: sensitiveTable(sensitive, domain, bucketization) });
  const worst = maxInference(bucketization, m);
  const maxInferenceReport: Record<string, InferenceBound> = Object.fromEntries(
    domain.map((v, i) => {
      const w = worst[i]!;
      const holds = BigInt(w.count) * betas[i]!.den <= betas[i]!.num * BigInt(w.size);
      return [v, { value: w.count / w.size, count: w.count, size: w.size, beta: toNumber(betas[i]!), betaExact: formatRational(betas[i]!), holds }];
    }),
  );
  ctx.progress('utility', 0);
  if (ctx.measureUtility === false) {
    return { releases, maxInference: maxInferenceReport, relativeError: {}, poolNote: 'not measured (the caller measured utility itself)', corruption: corruptionCurve(bucketization) };
  }
  const poolSize = Math.min(5000, Math.max(200, Math.floor(POOL_WORK_LIMIT / total)));
  const pool = drawDisjunctivePool(ctx.random, plan.nonSensitive, values, m, { size: poolSize, selectivity: 0.01, maxAttempts: poolSize * 50 });
  const releaseError = bucketPoolRelativeError(pool, plan.nonSensitive, values, bucketization);
  let anatomyError: number | undefined;
  if (anatomy && spec.algorithm !== 'anatomy') {
    const baseline = materializeBuckets(ctx.random, values, m, matrixFromBuckets(anatomy, m));
    anatomyError = bucketPoolRelativeError(pool, plan.nonSensitive, values, baseline);
  }
  const relativeError = { release: releaseError, ...(anatomyError !== undefined ? { anatomy: anatomyError } : {}) };
  const poolNote =
    `${formatCount(pool.queries.length)} queries${pool.queries.length < 5000 ? ` (the paper's 5,000 shortened to bound the work on ${formatCount(total)} rows)` : ''}: ` +
    'COUNT(*) WHERE A1 ∈ S1 ∧ … ∧ SA ∈ V, qd uniform over the quasi-identifiers, b = ⌈|A|·s^{1/(qd+1)}⌉ random values per attribute, s = 1%, ' +
    "answered from QIT and ST with Anatomy's estimator Σ_B matches_B · count_B(V)/|B| (Wang, Wang, Fu, Wong, §7.2.2)";
  return { releases, maxInference: maxInferenceReport, relativeError, poolNote, corruption: corruptionCurve(bucketization) };
}
