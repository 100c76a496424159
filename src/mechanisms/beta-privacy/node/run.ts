import type { JobWith } from '../../../common/job/job-parts.js';
import { coefficientBetas, infeasibleValues } from '../thresholds.js';
import { formatRational, toNumber, type Rational } from '../../../common/exact/rational.js';
import { domainValues } from '../../../common/table/sensitive-domain.js';
import { sensitiveDomains } from '../../../jobs/method-kit/analyze.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import type { BetaReport } from '../../../common/report/report-model.js';
import { JobError } from '../../../common/job/job-error.js';
import { exactValue, type Role } from '../../../common/job/job-parts.js';
import type { BetaPrivacySpec } from '../definition.js';
import { statement, strictestOf } from '../statement.js';
import { resolveRoles, type Plan } from '../../../jobs/method-kit/plan.js';
import { chooseBucketSetting, settingReport, twoSizeClasses } from './bucket-setting.js';
import { releaseBuckets } from './release-buckets.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import { reidentificationSection } from '../../../jobs/method-kit/reidentification.js';
import type { MethodOutcome } from '../../../jobs/method-kit/outcome.js';
import { own } from '../../../common/job/names.js';

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

export function runBetaPrivacy(job: JobWith<BetaPrivacySpec>, imported: ImportedTable, spec: BetaPrivacySpec, ctx: MethodContext): MethodOutcome {
  ctx.progress('analyze', 0);
  const plan = sensitivePlan(job, spec, imported);
  const column = plan.sensitive[0]!;
  const [{ domain, domainSource }] = sensitiveDomains(spec.domains, [column], { imported, baseDir: ctx.baseDir }, job.input.path) as [ReturnType<typeof sensitiveDomains>[number]];
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
  const setting = chooseBucketSetting(spec, domain.values, counts, betas, total);
  const { sMin, sMax, th, two, multi, l, anatomyReport, chosen } = setting;
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
  const released = ctx.mode === 'run' ? releaseBuckets(ctx, spec, plan, column.name, domain.values, values, betas, setting) : undefined;
  const releases = released?.releases ?? [];
  const maxInferenceReport = released?.maxInference;
  const relativeError = released?.relativeError ?? {};
  const poolNote = released?.poolNote ?? 'measured when the job runs';
  const corruption = released?.corruption;
  const holds = maxInferenceReport ? Object.values(maxInferenceReport).every((b) => b.holds) : true;
  const words = statement(
    spec,
    { sensitive: column.name, domainSource, m, nonSensitive: plan.nonSensitive.map((c) => c.name), values: valueReports, strictest: strictestOf(valueReports), sizes: chosen.sizes },
    { loss: chosen.loss, mse: chosen.mse, anatomy: { l, mse: anatomyReport.mse, feasible: anatomyReport.feasible }, relativeError: ctx.mode === 'run' ? relativeError : undefined },
  );
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
      },
      // How the multi-size search recursed depends on the true value counts.
      ...(multi ? { internal: { multiSizeCalls: multi.calls, multiSizeDepth: multi.depth } } : {}),
    },
    guarantee: {
      ...words.published.guarantee,
      holds,
      ...(maxInferenceReport ? { maxInference: maxInferenceReport } : {}),
    },
    risk: {
      reidentification: reidentificationSection(plan, total, null),
      adversary: `knows a target's ${plan.nonSensitive.map((c) => c.name).join(', ')} and the algorithm, finds the buckets holding the target's values in QIT and reads their value counts in ST; may also corrupt (learn) the values of other rows in the bucket`,
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
    summary: words.internal.summary,
    externalSummary: words.published.summary,
    warnings: words.internal.warnings,
    externalWarnings: words.published.warnings,
  };
}
