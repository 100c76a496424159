import type { JobWith } from '../../../common/job/job-parts.js';
import { uniformPerturbationRelease } from '../../../common/randomized-response/perturbation/release.js';
import { sizeThreshold as sg } from '../../../common/randomized-response/bounds.js';
import { reconstructionRelease } from '../../../common/randomized-response/release.js';
import { analyzeStartingUtility, outcomeSettling, utilityWorkFor, type UtilityWork } from '../../../jobs/method-kit/utility-helper.js';
import { attackGroups } from '../../../common/utility/reconstruction-attack.js';
import type { SensitiveReport } from '../../../common/report/report-model.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import { randomizedRiskAndUtility, withReidentification } from '../../../jobs/method-kit/randomized-risk.js';
import { domainSentence, randomizedDomainWarning } from '../../../jobs/method-kit/domains.js';
import { reidentificationSection } from '../../../jobs/method-kit/reidentification.js';
import type { ReconstructionPrivacySpec } from '../definition.js';
import { baseSensitiveReport, distributionOf, percent } from '../../../jobs/method-kit/describe.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import type { MethodOutcome, ReleasedTable } from '../../../jobs/method-kit/outcome.js';
import { releaseView } from '../../../jobs/method-kit/release-view.js';
import { riskyTargets } from '../../../jobs/method-kit/risky-groups.js';

/**
 * (ε,δ)-reconstruction-privacy by Algorithm 1 (Sampling, Perturbing, Scaling),
 * Wang, Han, Fu (2012) §5. Each sensitive attribute gets its own release: sampling follows
 * one attribute's value proportions, so two attributes cannot share rows.
 */
export function runReconstructionPrivacy(job: JobWith<ReconstructionPrivacySpec>, imported: ImportedTable, spec: ReconstructionPrivacySpec, ctx: MethodContext): MethodOutcome {
  ctx.progress('analyze', 0);
  // With one sensitive column, its utility figure's query pool is drawn on a helper from here on.
  const { analysis, early: drawing } = analyzeStartingUtility({ ...job, method: spec }, imported, ctx);
  const { plan, sensitive, grouping } = analysis;
  const rowCount = analysis.imported.table.rowCount;
  const releases: ReleasedTable[] = [];
  let firstReleaseRows: Uint32Array | null = null;
  const stems = releaseStems(sensitive.map((s) => s.column.name));
  // The utility figure of each sensitive column: the first one's pool is drawn on a helper from the
  // analysis on; the others are measured on this thread when settled.
  const works: (UtilityWork | undefined)[] = [];
  try {
    const measuredLater: SensitiveReport[] = sensitive.map((s, k) => {
      const targets = riskyTargets(analysis, s, spec.attack.minGroupSize, spec.attack.groups);
      if (ctx.mode === 'assess') {
        return {
          ...baseSensitiveReport(s, 0),
          riskiestGroups: targets.map((t) => ({ ...t.base, estimateBefore: Number.NaN })),
        };
      }
      const stage = (name: string, f: number): void => ctx.progress(name, (k + f) / sensitive.length);
      const utility = utilityWorkFor(ctx, drawing, k, plan.nonSensitive, s.values, s.params.m);
      works.push(utility);
      stage('release', 0);
      const rp = reconstructionRelease(ctx.random, {
        grouping,
        values: s.values,
        retention: s.retention,
        params: s.params,
        options: { strict: spec.strict },
        onProgress: (f) => stage('release', f),
      });
      const stem = stems[k]!;
      firstReleaseRows ??= rp.rows.sourceRow;
      releases.push({ stem, sheetName: releaseSheetName(s.column.name, sensitive.length), table: releaseView(plan, rp.rows, [s]) });
      stage('utility', 0.5);
      // Plain perturbation at the same p, kept in memory only: the "before" of the report.
      const up = uniformPerturbationRelease(ctx.random, rowCount, [{ values: s.values, domainSize: s.params.m, retention: s.retention }]);
      // Answered on the helper while this thread goes on (errors in this order: release, then plain).
      utility?.answer(rp.rows, 0, s.params.p);
      utility?.answer(up, 0, s.params.p);
      const before = attackGroups(grouping, up, 0, targets, s.params.p, s.params.m);
      const after = attackGroups(grouping, rp.rows, 0, targets, s.params.p, s.params.m);
      return {
        ...baseSensitiveReport(s, rp.stats.violatingAfter),
        violatingRowsAfter: rp.stats.violatingRowsAfter,
        sampledGroups: rp.stats.sampledGroups,
        suppressedGroups: rp.stats.suppressedGroups,
        suppressedRows: rp.stats.suppressedRows,
        trimmedRows: rp.stats.trimmedRows,
        relativeError: {},
        queries: 0,
        queryAttempts: 0,
        riskiestGroups: targets.map((t, i) => ({
          ...t.base,
          estimateBefore: before[i]!.estimate,
          estimateAfter: after[i]!.estimate,
          trialsAfter: rp.groupTrials[t.group]!.trials,
        })),
        releaseFile: stem,
        distribution: distributionOf(s, rp.rows.sensitive[0]!),
      };
    });
    return outcomeSettling(ctx, works, (measured) =>
      outcomeOf(
        measuredLater.map((r, k) => {
          const m = measured[k];
          return m ? { ...r, relativeError: { reconstructionPrivacy: m.errors[0]!, uniformPerturbation: m.errors[1]! }, queries: m.queries, queryAttempts: m.attempts } : r;
        }),
      ),
    );
  } catch (error) {
    drawing?.close();
    for (const w of works) w?.close();
    throw error;
  }

  function outcomeOf(bySensitive: SensitiveReport[]): MethodOutcome {
    const violatingAfter = bySensitive.reduce((sum, s) => sum + (s.violatingAfter ?? 0), 0);
    const violatingBefore = bySensitive.reduce((sum, s) => sum + (s.violatingBefore ?? 0), 0);
    const first = bySensitive[0]!;
    const names = sensitive.map((s) => s.column.name).join(', ');
    const quasi = plan.nonSensitive.map((c) => c.name).join(', ');
    const suppressed = bySensitive.reduce((sum, s) => sum + (s.suppressedRows ?? 0), 0);
    const warnings: string[] = [];
    if (violatingAfter > 0) {
      warnings.push(
        `${violatingAfter} micro group(s) pass only "modulo coin flips": their sampled trials exceed s_g by the extra-row coins. ` +
          'Set method.strict to true to trim them so every group passes the exact test.',
      );
    }
    if (suppressed > 0) warnings.push(`${suppressed} record(s) in groups that could not be protected (s_g < 1) or lost every sampling coin were not published.`);
    for (const r of releases) {
      // Scaling repeats sampled rows up to each group's size and rounds with a coin: the total can pass n.
      if (r.table.rowCount > rowCount) {
        warnings.push(
          `${releases.length === 1 ? 'The release' : `The release file ${r.stem}.csv`} has ${r.table.rowCount.toLocaleString('en-US')} rows, ${(r.table.rowCount - rowCount).toLocaleString('en-US')} more than the input's ${rowCount.toLocaleString('en-US')}: ` +
            'each sampled micro group is scaled back to its size by repeating its sampled rows, and the number of copies is rounded with a coin, so a release can hold a few more rows than the input. Counts stay unbiased.',
        );
      }
    }
    const externalWarnings = sensitive.length > 1 ? [`Each sensitive attribute has its own release file; do not join them (${names}).`] : [];
    warnings.push(...externalWarnings);
    const domainWarning = randomizedDomainWarning(sensitive, '(ε,δ)-reconstruction privacy');
    if (domainWarning) {
      warnings.unshift(domainWarning.internal);
      externalWarnings.unshift(domainWarning.published);
    }
    const domainWords = domainSentence(sensitive.map((s) => ({ column: s.column.name, source: s.domainSource, m: s.params.m })));
    return {
      plan,
      releases,
      ...withReidentification(randomizedRiskAndUtility(analysis, bySensitive, 'reconstructionPrivacy'), reidentificationSection(plan, rowCount, firstReleaseRows, grouping)),
      method: {
        type: 'reconstruction-privacy',
        title: '(ε,δ)-reconstruction privacy (Sampling, Perturbing, Scaling)',
        parameters: {
          retention: spec.retention,
          epsilon: spec.epsilon,
          delta: spec.delta,
          bound: spec.bound,
          strict: spec.strict,
          unprotectable: spec.unprotectable,
        },
        derived: Object.fromEntries(
          sensitive.flatMap((s) => [
            [`${s.column.name}.m`, s.params.m],
            [`${s.column.name}.sizeThresholdRange`, sizeThresholdRange(s.params.m, s.params.p, spec)],
          ]),
        ),
        // The largest valid ε follows from the input's own groups (their f_max): internal only.
        internal: Object.fromEntries(sensitive.map((s) => [`${s.column.name}.largestValidEpsilon`, s.risk.largestValidEpsilon])),
      },
      guarantee: {
        name: '(ε,δ)-reconstruction privacy',
        statement: `${reconstructionStatement(spec.epsilon, spec.delta, violatingAfter)} ${domainWords}`,
        formula:
          spec.bound === 'full'
            ? 'δ ≤ min{U1, L1}, U1 = (e^θ/(1+θ)^(1+θ))^μ, L1 = (e^−θ/(1−θ)^(1−θ))^μ, μ = n(fp + (1−p)/m), θ = εpf/(fp + (1−p)/m); equivalently n ≤ s_g = ln δ / (w ln Y)'
            : 'δ ≤ min{U2, L2}, U2 = exp(−θ²μ/(2+θ)), L2 = exp(−θ²μ/2), μ = n(fp + (1−p)/m), θ = εpf/(fp + (1−p)/m); equivalently n ≤ s_g = −2 ln δ / (w θ²)',
        source: 'Wang, Han, Fu, "Randomization Resilient To Sensitive Reconstruction", Corollary 4.10, Theorems 5.11/5.13/5.16, Algorithm 1',
        holds: violatingAfter === 0,
        epsilon: spec.epsilon,
        delta: spec.delta,
      },
      externalSummary: [
        `This release protects ${names} against an adversary who knows a person's ${quasi} and reconstructs the distribution of the sensitive value in that person's micro group (the records sharing those values).`,
        `Each record's sensitive value was kept with probability ${spec.retention} and otherwise replaced by a random value from its domain; micro groups too large to be safe were sampled down to their safe size s_g and scaled back to their original size.`,
        reconstructionStatement(spec.epsilon, spec.delta, violatingAfter),
      ],
      summary: [
        `This release protects ${names} against an adversary who knows a person's ${quasi} and reconstructs the distribution of the sensitive value in that person's micro group (the records sharing those values).`,
        `Each record's sensitive value was kept with probability ${spec.retention} and otherwise replaced by a random value from its domain; micro groups too large to be safe were sampled down to their safe size s_g and scaled back to their original size.`,
        `Before: under plain randomized response at the same retention, ${violatingBefore.toLocaleString('en-US')} of ${first.microGroups.toLocaleString('en-US')} micro groups (${percent(first.violatingRowsBefore ?? 0, rowCount)} of records for ${first.column}) fail the (ε = ${spec.epsilon}, δ = ${spec.delta}) reconstruction test. After: ${violatingAfter.toLocaleString('en-US')}.`,
        ctx.mode === 'run'
          ? `Cost: count queries that fix a sensitive value, answered from the release, have a mean relative error of ${fmt(first.relativeError.reconstructionPrivacy)} (plain randomized response: ${fmt(first.relativeError.uniformPerturbation)}).`
          : 'Run the job to measure the utility cost on the actual release.',
      ],
      warnings,
      externalWarnings,
    };
  }
}

/**
 * What the (ε,δ) test of Corollary 4.10 establishes, in words: it compares the
 * Chernoff bounds with δ, not the exact probabilities, so it promises nothing
 * about how likely a reconstruction within ±ε is (an exactly computed passing
 * group can be reconstructed within ±ε with probability 0.977). The sentence
 * that the test holds is written only when every group passes.
 */
export function reconstructionStatement(epsilon: number, delta: number, failing: number): string {
  const test =
    `the (ε = ${epsilon}, δ = ${delta}) reconstruction test: for each sensitive value, the Chernoff bounds on the probability that ` +
    `the adversary's reconstruction F′ misses the value's frequency by more than ${epsilon} relative error (above or below) are both at least ${delta}`;
  const caveat = ' The test compares bounds, not exact probabilities: it does not promise that a reconstruction within that error happens with probability at most 1 − δ.';
  return failing === 0
    ? `Every micro group of the release passes ${test}.${caveat}`
    : `${failing} micro group(s) of the release do NOT pass ${test} (they pass only modulo the sampling coins); the guarantee does not hold for them.${caveat}`;
}

function fmt(value: number | undefined): string {
  return value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(4);
}

/** The workbook sheet of a sensitive column's release: "Release" when there is one. */
export function releaseSheetName(column: string, sensitiveColumns: number): string {
  return sensitiveColumns === 1 ? 'Release' : `Release ${column}`.slice(0, 31);
}

/**
 * One release file per sensitive column, named after it where its name has letters a file name
 * keeps everywhere, else by its position; names that meet (診断 and 収入 both become "_"; "A" and "a"
 * are one file on macOS and Windows) get a number.
 */
export function releaseStems(names: readonly string[]): string[] {
  if (names.length === 1) return ['release'];
  const used = new Set<string>();
  return names.map((name, k) => {
    const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_');
    const base = /[A-Za-z0-9]/.test(safe) ? `release-${safe}` : `release-${k + 1}`;
    let stem = base;
    for (let n = 2; used.has(stem.toLowerCase()); n++) stem = `${base}-${n}`;
    used.add(stem.toLowerCase());
    return stem;
  });
}

function sizeThresholdRange(m: number, p: number, spec: ReconstructionPrivacySpec): string {
  // s_g is smallest for f_max = 1 and largest for f_max = 1/m (uniform group).
  const params = { p, m, epsilon: spec.epsilon, delta: spec.delta, bound: spec.bound };
  return `${sg(1, params).toFixed(3)} (f_max = 1) … ${sg(1 / m, params).toFixed(3)} (f_max = 1/m)`;
}
