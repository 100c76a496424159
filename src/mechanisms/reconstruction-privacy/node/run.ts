import type { JobWith } from '../../../common/job/job-parts.js';
import { uniformPerturbationRelease } from '../../../common/randomized-response/perturbation/release.js';
import { sizeThreshold as sg } from '../../../common/randomized-response/bounds.js';
import { reconstructionRelease } from '../../../common/randomized-response/release.js';
import { analyzeStartingUtility, outcomeSettling, utilityWorkFor, type UtilityWork } from '../../../jobs/method-kit/utility-helper.js';
import { attackGroups } from '../../../common/utility/reconstruction-attack.js';
import type { SensitiveReport } from '../../../common/report/report-model.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import { randomizedRiskAndUtility, withReidentification } from '../../../jobs/method-kit/randomized-risk.js';
import { reidentificationSection } from '../../../jobs/method-kit/reidentification.js';
import type { ReconstructionPrivacySpec } from '../definition.js';
import { statement } from '../statement.js';
import { baseSensitiveReport, distributionOf } from '../../../jobs/method-kit/describe.js';
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
  let firstReleasedByGroup: Uint32Array | null = null;
  const stems = releaseStems(sensitive.map((s) => s.column.name));
  // The same for the outcome before and after its figures are measured (outcomeSettling builds both): counted once.
  let identity: ReturnType<typeof reidentificationSection> | undefined;
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
        counts: s.counts,
        // The utility figure counts the release by micro group: handed the rows in group order (a
        // copy, before they are shuffled), its helper reads them in order instead of at random.
        beforeShuffle: (rows) => utility?.answer(rows, 0, s.params.p),
        onProgress: (f) => stage('release', f),
      });
      const stem = stems[k]!;
      firstReleasedByGroup ??= rp.releasedByGroup;
      releases.push({ stem, sheetName: releaseSheetName(s.column.name, sensitive.length), table: releaseView(plan, rp.rows, [s]) });
      stage('utility', 0.5);
      // Plain perturbation at the same p, kept in memory only (so not shuffled): the "before" of the report.
      const up = uniformPerturbationRelease(ctx.random, rowCount, [{ values: s.values, domainSize: s.params.m, retention: s.retention }], true);
      // Answered on the helper while this thread goes on (errors in this order: release, then plain).
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
          trialsAfter: rp.groupTrials.trials[t.group]!,
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
    const first = bySensitive[0]!;
    const violatingAfter = bySensitive.reduce((sum, s) => sum + (s.violatingAfter ?? 0), 0);
    const words = statement(
      spec,
      {
        sensitive: sensitive.map((s) => ({ column: s.column.name, m: s.params.m, p: s.params.p, source: s.domainSource })),
        nonSensitive: plan.nonSensitive.map((c) => c.name),
        violatingAfter,
      },
      {
        rowCount,
        violatingBefore: bySensitive.reduce((sum, s) => sum + (s.violatingBefore ?? 0), 0),
        first: { column: first.column, microGroups: first.microGroups, violatingRowsBefore: first.violatingRowsBefore ?? 0 },
        errors: ctx.mode === 'run' ? { reconstructionPrivacy: first.relativeError.reconstructionPrivacy, uniformPerturbation: first.relativeError.uniformPerturbation } : undefined,
        suppressedRows: bySensitive.reduce((sum, s) => sum + (s.suppressedRows ?? 0), 0),
        releases: releases.map((r) => ({ stem: r.stem, rows: r.table.rowCount })),
      },
    );
    return {
      plan,
      releases,
      ...withReidentification(randomizedRiskAndUtility(analysis, bySensitive, 'reconstructionPrivacy'), (identity ??= reidentificationSection(plan, rowCount, firstReleasedByGroup, grouping))),
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
        ...words.published.guarantee,
        holds: violatingAfter === 0,
        epsilon: spec.epsilon,
        delta: spec.delta,
      },
      externalSummary: words.published.summary,
      summary: words.internal.summary,
      warnings: words.internal.warnings,
      externalWarnings: words.published.warnings,
    };
  }
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
