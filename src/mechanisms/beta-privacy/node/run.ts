import type { JobWith } from '../../../common/job/job-parts.js';
import { coefficientBetas, infeasibleValues } from '../thresholds.js';
import { formatRational, toNumber, type Rational } from '../../../common/exact/rational.js';
import { domainValues } from '../../../common/table/sensitive-domain.js';
import { sensitiveDomains } from '../../../jobs/method-kit/analyze.js';
import { betaDomainWarning, domainSentence } from '../../../jobs/method-kit/domains.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import type { BetaReport } from '../../../common/report/report-model.js';
import { JobError } from '../../../jobs/method-kit/job-error.js';
import { exactValue, type Role } from '../../../common/job/job-parts.js';
import type { BetaPrivacySpec } from '../definition.js';
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
  const domainWarning = betaDomainWarning(column.name, domainSource);
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
  const quasi = plan.nonSensitive.map((c) => c.name).join(', ');
  // A declared value no record holds bounds nothing (its β may be 0): the strictest is among the values present.
  const present = valueReports.filter((v) => v.count > 0);
  const strictest = (present.length > 0 ? present : valueReports).reduce((a, b) => (b.beta < a.beta ? b : a));
  const fmt = (v: number | undefined): string => (v === undefined || Number.isNaN(v) ? 'n/a' : v.toFixed(4));
  const sizeText = Object.entries(chosen.sizes).map(([s, n]) => `${n.toLocaleString('en-US')} of size ${s}`).join(', ');
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
      name: 'β-privacy',
      statement:
        `An adversary who knows a person's ${quasi} and that the person is in the table infers each sensitive value v ` +
        'with probability at most β_v: in every bucket the share of v is at most β_v. ' +
        domainSentence([{ column: column.name, source: domainSource, m }]),
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
        ? `Count queries that fix a sensitive value, answered from the release, have a mean relative error of ${fmt(relativeError.release)}${relativeError.anatomy !== undefined ? ` (Anatomy: ${fmt(relativeError.anatomy)})` : ''}.`
        : 'Run the job to measure the query error on the actual release.',
      ...(spec.fakeValues > 0 ? [`Each bucket lists ${spec.fakeValues} fake value(s) so that an adversary who learns other records of a bucket stays uncertain (corruption attack).`] : []),
    ],
    warnings: [...(domainWarning ? [domainWarning.internal] : []), ...unboundedWarnings(spec, column.name, valueReports, chosen.sizes), ...methodWarnings(spec)],
    // The method's own words, and facts the release states anyway (the published β per value, QIT's bucket sizes).
    externalWarnings: [...(domainWarning ? [domainWarning.published] : []), ...unboundedWarnings(spec, column.name, valueReports, chosen.sizes), ...methodWarnings(spec)],
  };
}

/**
 * Where the guarantee protects nothing: a value whose β is 1 may be inferred with certainty, and
 * without fake values a bucket of one record publishes that record's value beside its
 * quasi-identifiers. Both follow from what the release itself shows (the β of each value is
 * published with it, QIT shows each bucket's size), so the warnings are published too.
 */
function unboundedWarnings(spec: BetaPrivacySpec, sensitive: string, values: readonly { value: string; beta: number }[], sizes: Readonly<Record<string, number>>): string[] {
  const unbounded = values.filter((v) => v.beta >= 1).map((v) => `“${v.value}”`);
  const singles = sizes['1'] ?? 0;
  const warnings: string[] = [];
  if (unbounded.length > 0) {
    warnings.push(
      `β = 1 for ${unbounded.length === 1 ? unbounded[0] : `${unbounded.slice(0, -1).join(', ')} and ${unbounded.at(-1)}`}: the guarantee sets no bound for ${unbounded.length === 1 ? 'this value' : 'these values'}, ` +
        `so whoever finds a person's bucket may learn it with certainty. Give smaller β values (or a smaller coefficient) to protect ${unbounded.length === 1 ? 'it' : 'them'}.`,
    );
  }
  if (singles > 0 && spec.fakeValues === 0) {
    warnings.push(`${singles.toLocaleString('en-US')} record${singles === 1 ? ' is' : 's are'} in buckets of size 1: ${singles === 1 ? 'its' : 'each one\'s'} ${sensitive} is published exactly beside its quasi-identifiers.`);
  }
  return warnings;
}

/**
 * What a reader of the release must know about the method as configured. They state no fact of the
 * data, so they are published too.
 */
function methodWarnings(spec: BetaPrivacySpec): string[] {
  if (spec.fakeValues === 0) return [];
  return [
    `Fake values distort the sensitive table: each listed value belongs to a real record with probability |B|/(|B| + ${spec.fakeValues}).`,
    ...('coefficient' in spec.beta
      ? ['The thresholds β_v = c·f_v are published with the release, and each states its value\'s exact frequency in the input: a reader can subtract the fake values from the sensitive table\'s counts. Give explicit β values instead of the coefficient when the fake values matter.']
      : []),
  ];
}
