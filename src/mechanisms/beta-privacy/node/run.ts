import type { JobWith } from '../../../common/job/job-parts.js';
import { anatomyGroups, anatomySizeOnlyLoss } from '../anatomy.js';
import { bucketsFromClasses, materializeBuckets, matrixFromBuckets, maxInference, type Bucketization } from '../bucketize.js';
import { worstPosterior } from '../corruption-attack.js';
import { addFakeValues, FakeValueError } from '../fake-values.js';
import { multiSizeBucketing, type BucketClass } from '../multi-size.js';
import { partitionCounts } from '../partition.js';
import { bucketPoolRelativeError, drawDisjunctivePool } from '../query-pool.js';
import { ceilInverse, coefficientBetas, infeasibleValues, makeThresholds, minimumBucketSize } from '../thresholds.js';
import { bucketMse, squareLoss, twoSizeBucketing, type TwoSizeSetting } from '../two-size.js';
import { randomPermutation } from '../../../common/random/draws.js';
import { compare, formatRational, toNumber, type Rational } from '../../../common/exact/rational.js';
import { domainValues } from '../../../common/table/sensitive-domain.js';
import { jobDomain } from '../../../jobs/method-kit/analyze.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import type { BetaReport, BucketSettingReport, InferenceBound } from '../../../common/report/report-model.js';
import { JobError } from '../../../jobs/method-kit/job-error.js';
import { exactValue, type Role } from '../../../common/job/job-parts.js';
import type { BetaPrivacySpec } from '../definition.js';
import { resolveRoles, type Plan } from '../../../jobs/method-kit/plan.js';
import { quasiIdentifierTable, sensitiveTable } from './release-view.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import { reidentificationSection } from '../../../jobs/method-kit/reidentification.js';
import type { MethodOutcome, ReleasedTable } from '../../../jobs/method-kit/outcome.js';
import { own } from '../../../common/job/names.js';

/** Query-pool work is rows × queries; above this the pool is shortened and the report says so. */
const POOL_WORK_LIMIT = 3e8;

function sensitivePlan(job: JobWith<BetaPrivacySpec>, spec: BetaPrivacySpec, imported: ImportedTable): Plan {
  let attributes = job.attributes;
  if (spec.sensitive !== undefined) {
    if (!imported.table.columns.some((c) => c.name === spec.sensitive)) {
      throw new JobError(`the input has no column "${spec.sensitive}"`, 'method.sensitive');
    }
    const role = own(attributes, spec.sensitive);
    if (role !== undefined && role !== 'sensitive') {
      throw new JobError(`"${spec.sensitive}" is marked "${role}" in attributes but named as the sensitive column`, 'method.sensitive');
    }
    attributes = Object.assign(Object.create(null) as Record<string, Role>, attributes, { [spec.sensitive]: 'sensitive' });
  }
  const plan = resolveRoles({ ...job, attributes }, imported.table);
  if (plan.sensitive.length !== 1) {
    throw new JobError(
      `β-privacy protects one sensitive attribute per job; ${plan.sensitive.length} are marked (${plan.sensitive.map((c) => c.name).join(', ')}): ` +
        'mark the others "quasi" or "insensitive", or run one job per attribute',
      'attributes',
    );
  }
  return plan;
}

function resolveBetas(spec: BetaPrivacySpec, values: readonly string[], counts: readonly number[]): Rational[] {
  if ('coefficient' in spec.beta) return coefficientBetas(exactValue(spec.beta.coefficient), counts);
  const overrides = spec.beta.values;
  for (const name of Object.keys(overrides)) {
    if (!values.includes(name)) {
      throw new JobError(`"${name}" is not a value of the sensitive column (values: ${values.slice(0, 12).map((v) => JSON.stringify(v)).join(', ')}${values.length > 12 ? ', …' : ''})`, `method.beta.values.${name}`);
    }
  }
  const fallback = spec.beta.default;
  return values.map((v) => exactValue(own(overrides, v) ?? fallback));
}

function settingReport(algorithm: string, classes: readonly { size: number; count: number }[], total: number, feasible: boolean, note?: string): BucketSettingReport {
  const sizes: Record<string, number> = {};
  let loss = 0;
  for (const c of classes) {
    if (c.count === 0) continue;
    sizes[String(c.size)] = (sizes[String(c.size)] ?? 0) + c.count;
    loss += c.count * squareLoss(c.size);
  }
  return { algorithm, sizes, loss, mse: bucketMse(loss, total), feasible, ...(note ? { note } : {}) };
}

function twoSizeClasses(counts: readonly number[], th: ReturnType<typeof makeThresholds>, best: TwoSizeSetting): BucketClass[] {
  if (best.n2 === 0) return [{ size: best.s1, count: best.n1, valueCounts: counts }];
  if (best.n1 === 0) return [{ size: best.s2, count: best.n2, valueCounts: counts }];
  const { first, second } = partitionCounts(counts, th, best);
  return [
    { size: best.s1, count: best.n1, valueCounts: first },
    { size: best.s2, count: best.n2, valueCounts: second },
  ];
}

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
  const largest = Math.max(...[...signatures.values()].map((v) => v.real.reduce((a, c) => a + c, 0)));
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
export function runBetaPrivacy(job: JobWith<BetaPrivacySpec>, imported: ImportedTable, spec: BetaPrivacySpec, ctx: MethodContext): MethodOutcome {
  ctx.progress('analyze', 0);
  const plan = sensitivePlan(job, spec, imported);
  const column = plan.sensitive[0]!;
  const domain = jobDomain(column);
  const m = domain.values.length;
  const values = domainValues(column, domain);
  const counts = new Array<number>(m).fill(0);
  for (let r = 0; r < values.length; r++) counts[values[r]!]!++;
  const total = values.length;
  const betas = resolveBetas(spec, domain.values, counts);
  const infeasible = infeasibleValues(betas, counts);
  if (infeasible.length > 0) {
    const list = infeasible.map((i) => `"${domain.values[i]}" (f = ${(counts[i]! / total).toFixed(6)} > β = ${formatRational(betas[i]!)}; the smallest β that works is ${counts[i]}/${total})`);
    throw new JobError(`no bucketization can meet β: ${list.join(', ')} (Lemma 3.7: β_v ≥ f_v is needed for every value)`, 'method.beta');
  }
  const sMin = spec.minBucket ?? minimumBucketSize(betas);
  const sMax = spec.maxBucket;
  if (sMin > sMax) throw new JobError(`the smallest usable bucket size is ${sMin} but maxBucket is ${sMax}`, 'method.maxBucket');
  const th = makeThresholds(betas, Math.max(sMax, 1));
  const two = twoSizeBucketing(counts, th, sMin, sMax);
  const multi = multiSizeBucketing(counts, th, sMin, sMax);
  let minBeta = betas[0]!;
  for (const b of betas) if (compare(b, minBeta) < 0) minBeta = b;
  const l = ceilInverse(minBeta);
  const anatomy = anatomyGroups(counts, l);
  const anatomyReport = {
    ...(anatomy
      ? settingReport('anatomy', anatomy.map((g) => ({ size: g.reduce((a, c) => a + c, 0), count: 1 })), total, true)
      : {
          algorithm: 'anatomy',
          sizes: {},
          loss: anatomySizeOnlyLoss(total, l, squareLoss),
          mse: bucketMse(anatomySizeOnlyLoss(total, l, squareLoss), total),
          feasible: false,
          note: `ℓ-diversity with ℓ = ${l} is infeasible (some value has f > 1/ℓ); loss from sizes ℓ and ℓ+1 ignoring privacy, as the paper does`,
        }),
    l,
  };
  let chosenClasses: BucketClass[] | null = null;
  if (spec.algorithm === 'two-size' && two) chosenClasses = twoSizeClasses(counts, th, two);
  if (spec.algorithm === 'multi-size' && multi) chosenClasses = multi.classes;
  if (spec.algorithm === 'anatomy' && !anatomy) {
    throw new JobError(`Anatomy needs ℓ-diversity with ℓ = ⌈1/min β⌉ = ${l}, which these data do not allow (some value has f > 1/ℓ)`, 'method.algorithm');
  }
  if (spec.algorithm !== 'anatomy' && !chosenClasses) {
    const unplaceable = domain.values
      .map((v, i) => ({ v, need: ceilInverse(betas[i]!) }))
      .filter((x) => x.need > sMax)
      .map((x) => `"${x.v}" needs buckets of at least ⌈1/β⌉ = ${x.need} records`);
    throw new JobError(
      `no valid bucket setting with sizes in [${sMin}, ${sMax}]` + (unplaceable.length ? `: ${unplaceable.join(', ')}` : '') + '; raise maxBucket or β',
      'method.maxBucket',
    );
  }
  const chosen =
    spec.algorithm === 'anatomy'
      ? anatomyReport
      : settingReport(spec.algorithm, chosenClasses!, total, true);
  const valueReports = domain.values.map((v, i) => ({
    value: v,
    count: counts[i]!,
    frequency: counts[i]! / total,
    beta: toNumber(betas[i]!),
    betaExact: formatRational(betas[i]!),
    feasible: true,
  }));
  const betaReport: BetaReport = {
    sensitive: column.name,
    values: valueReports,
    sizeRange: { min: sMin, max: sMax },
    chosen,
    ...(two ? { twoSize: settingReport('two-size', twoSizeClasses(counts, th, two), total, true) } : {}),
    ...(multi ? { multiSize: { ...settingReport('multi-size', multi.classes, total, true), calls: multi.calls, depth: multi.depth } } : {}),
    anatomy: anatomyReport,
    fakeValues: spec.fakeValues,
  };
  const releases: ReleasedTable[] = [];
  let maxInferenceReport: Record<string, InferenceBound> | undefined;
  let relativeError: { release?: number; anatomy?: number } = {};
  let poolNote = 'measured when the job runs';
  let corruption: BetaReport['corruption'];
  if (ctx.mode === 'run') {
    ctx.progress('release', 0);
    const buckets = spec.algorithm === 'anatomy' ? matrixFromBuckets(anatomy!, m) : bucketsFromClasses(chosenClasses!);
    let bucketization = materializeBuckets(ctx.random, values, m, buckets);
    try {
      bucketization = addFakeValues(ctx.random, bucketization, m, spec.fakeValues, exclusionsOf(spec, plan, domain.values, bucketization));
    } catch (error) {
      if (error instanceof FakeValueError) throw new JobError(error.message, 'method.fakeValues');
      throw error;
    }
    const order = randomPermutation(ctx.random, total);
    releases.push({ stem: 'qit', sheetName: 'QIT', table: quasiIdentifierTable(plan, bucketization, order) });
    releases.push({ stem: 'st', sheetName: 'ST', table: sensitiveTable(column.name, domain.values, bucketization) });
    const worst = maxInference(bucketization, m);
    maxInferenceReport = Object.fromEntries(
      domain.values.map((v, i) => {
        const w = worst[i]!;
        const holds = BigInt(w.count) * betas[i]!.den <= betas[i]!.num * BigInt(w.size);
        return [v, { value: w.count / w.size, count: w.count, size: w.size, beta: toNumber(betas[i]!), betaExact: formatRational(betas[i]!), holds }];
      }),
    );
    ctx.progress('utility', 0);
    const poolSize = Math.min(5000, Math.max(200, Math.floor(POOL_WORK_LIMIT / total)));
    const pool = drawDisjunctivePool(ctx.random, plan.nonSensitive, values, m, { size: poolSize, selectivity: 0.01, maxAttempts: poolSize * 50 });
    const releaseError = bucketPoolRelativeError(pool, plan.nonSensitive, values, bucketization);
    let anatomyError: number | undefined;
    if (anatomy && spec.algorithm !== 'anatomy') {
      const baseline = materializeBuckets(ctx.random, values, m, matrixFromBuckets(anatomy, m));
      anatomyError = bucketPoolRelativeError(pool, plan.nonSensitive, values, baseline);
    }
    relativeError = { release: releaseError, ...(anatomyError !== undefined ? { anatomy: anatomyError } : {}) };
    poolNote =
      `${pool.queries.length.toLocaleString('en-US')} queries${pool.queries.length < 5000 ? ` (the paper's 5,000 shortened to bound the work on ${total.toLocaleString('en-US')} rows)` : ''}: ` +
      'COUNT(*) WHERE A1 ∈ S1 ∧ … ∧ SA ∈ V, qd uniform over the quasi-identifiers, b = ⌈|A|·s^{1/(qd+1)}⌉ random values per attribute, s = 1%, ' +
      "answered from QIT and ST with Anatomy's estimator Σ_B matches_B · count_B(V)/|B| (Wang, Wang, Fu, Wong, §7.2.2)";
    corruption = corruptionCurve(bucketization);
  }
  const holds = maxInferenceReport ? Object.values(maxInferenceReport).every((b) => b.holds) : true;
  const quasi = plan.nonSensitive.map((c) => c.name).join(', ');
  const strictest = valueReports.reduce((a, b) => (b.beta < a.beta ? b : a));
  const fmt = (v: number | undefined): string => (v === undefined || Number.isNaN(v) ? 'n/a' : v.toFixed(4));
  const sizeText = Object.entries(chosen.sizes).map(([s, n]) => `${n} of size ${s}`).join(', ');
  return {
    plan,
    releases,
    method: {
      type: 'beta-privacy',
      title: 'β-privacy bucketization',
      parameters: {
        sensitive: column.name,
        ...('coefficient' in spec.beta ? { coefficient: String(spec.beta.coefficient) } : { betaDefault: String(spec.beta.default) }),
        algorithm: spec.algorithm,
        minBucket: sMin,
        maxBucket: sMax,
        fakeValues: spec.fakeValues,
      },
      derived: {
        m,
        records: total,
        sMin,
        l,
        lossFunction: 'g(s) = s²',
        ...(multi ? { multiSizeCalls: multi.calls, multiSizeDepth: multi.depth } : {}),
      },
    },
    guarantee: {
      name: 'β-privacy',
      statement:
        `An adversary who knows a person's ${quasi} and that the person is in the table infers each sensitive value v ` +
        'with probability at most β_v: in every bucket the share of v is at most β_v.',
      formula: 'P(v | t) = max over buckets B holding t of count_B(v)/|B| ≤ β_v, i.e. count_B(v) ≤ ⌊β_v·|B|⌋ (computed exactly)',
      source: 'Wang, Wang, Fu, Wong, "Inferential or Differential: Privacy Laws Dictate", §3–5',
      holds,
      ...(maxInferenceReport ? { maxInference: maxInferenceReport } : {}),
    },
    risk: {
      reidentification: reidentificationSection(plan, total, null),
      adversary: `knows a target's ${quasi} and the algorithm, finds the buckets holding the target's values in QIT and reads their value counts in ST; may also corrupt (learn) the values of other rows in the bucket`,
    },
    utility: {
      relativeError,
      queryPool: poolNote,
      loss: chosen.loss,
      mse: chosen.mse,
      lossFunction: 'Loss = Σ_B |B|², MSE = Loss/|T| − 1',
    },
    buckets: { count: Object.values(chosen.sizes).reduce((a, b) => a + b, 0), sizes: chosen.sizes },
    beta: { ...betaReport, ...(corruption ? { corruption } : {}) },
    externalSummary: [
      `The sensitive column ${column.name} is published apart from the other columns: records are grouped into buckets (${sizeText}), ` +
        'the quasi-identifier table shows each record with its bucket id and the sensitive table lists the values of each bucket.',
      `Whoever knows a person's ${quasi} can only narrow the person's ${column.name} to the values of one bucket: ` +
        `each value v is inferred with probability at most β_v (strictest: "${strictest.value}" at ${strictest.betaExact}).`,
      ...(spec.fakeValues > 0 ? [`Each bucket lists ${spec.fakeValues} fake value(s) so that an adversary who learns other records of a bucket stays uncertain (corruption attack).`] : []),
    ],
    summary: [
      `The sensitive column ${column.name} is published apart from the other columns: records are grouped into buckets (${sizeText}), ` +
        'the quasi-identifier table shows each record with its bucket id and the sensitive table lists the values of each bucket.',
      `Whoever knows a person's ${quasi} can only narrow the person's ${column.name} to the values of one bucket: ` +
        `each value v is inferred with probability at most β_v (strictest: "${strictest.value}" at ${strictest.betaExact}).`,
      `Cost: loss ${chosen.loss.toLocaleString('en-US')} (MSE ${chosen.mse.toFixed(3)}); Anatomy with ℓ = ${l} would give MSE ${anatomyReport.mse.toFixed(3)}${anatomyReport.feasible ? '' : ' and is not even feasible here'}.`,
      ctx.mode === 'run'
        ? `Count queries answered from the release have a mean relative error of ${fmt(relativeError.release)}${relativeError.anatomy !== undefined ? ` (Anatomy: ${fmt(relativeError.anatomy)})` : ''}.`
        : 'Run the job to measure the query error on the actual release.',
      ...(spec.fakeValues > 0 ? [`Each bucket lists ${spec.fakeValues} fake value(s) so that an adversary who learns other records of a bucket stays uncertain (corruption attack).`] : []),
    ],
    warnings: spec.fakeValues > 0 ? [`Fake values distort the sensitive table: each listed value belongs to a real record with probability |B|/(|B| + ${spec.fakeValues}).`] : [],
    // Only the method's own words: they state no fact of the data.
    externalWarnings: spec.fakeValues > 0 ? [`Fake values distort the sensitive table: each listed value belongs to a real record with probability |B|/(|B| + ${spec.fakeValues}).`] : [],
  };
}

