import type { JobWith } from '../../../common/job/job-parts.js';
import { uniformPerturbationRelease } from '../../../common/randomized-response/perturbation/release.js';
import { amplification } from '../../../common/randomized-response/perturbation/retention.js';
import { formatRational } from '../../../common/exact/rational.js';
import { analyzeStartingUtility, outcomeSettling, utilityWorkFor, type UtilityWork } from '../../../jobs/method-kit/utility-helper.js';
import { attackGroups } from '../../../common/utility/reconstruction-attack.js';
import type { SensitiveReport } from '../../../common/report/report-model.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import { randomizedRiskAndUtility, withReidentification } from '../../../jobs/method-kit/randomized-risk.js';
import { reidentificationSection } from '../../../jobs/method-kit/reidentification.js';
import type { UniformPerturbationSpec } from '../definition.js';
import { statement } from '../statement.js';
import { baseSensitiveReport, distributionOf } from '../../../jobs/method-kit/describe.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import type { MethodOutcome, ReleasedTable } from '../../../jobs/method-kit/outcome.js';
import { releaseView } from '../../../jobs/method-kit/release-view.js';
import { riskyTargets } from '../../../jobs/method-kit/risky-groups.js';

/** Randomized response over each sensitive attribute's whole domain (Wang, Han, Fu (2012) §3.1). */
export function runUniformPerturbation(job: JobWith<UniformPerturbationSpec>, imported: ImportedTable, spec: UniformPerturbationSpec, ctx: MethodContext): MethodOutcome {
  ctx.progress('analyze', 0);
  // With one sensitive column, its utility figure's query pool is drawn on a helper from here on.
  const { analysis, early } = analyzeStartingUtility({ ...job, method: spec }, imported, ctx);
  const { plan, sensitive } = analysis;
  const rowCount = analysis.imported.table.rowCount;
  const releases: ReleasedTable[] = [];
  let measuredLater: SensitiveReport[];
  // The same for the outcome before and after its figures are measured (outcomeSettling builds both): counted once.
  let identity: ReturnType<typeof reidentificationSection> | undefined;
  // The utility figure of each sensitive column: the first one's pool is drawn on a helper from the
  // analysis on; the others are measured on this thread when settled.
  const works: (UtilityWork | undefined)[] = [];
  try {
    if (ctx.mode === 'run') {
      ctx.progress('release', 0);
      const rows = uniformPerturbationRelease(
        ctx.random,
        rowCount,
        sensitive.map((s) => ({ values: s.values, domainSize: s.params.m, retention: s.retention })),
      );
      releases.push({ stem: 'release', sheetName: 'Release', table: releaseView(plan, rows, sensitive) });
      measuredLater = sensitive.map((s, k) => {
        ctx.progress('utility', k / sensitive.length);
        const utility = utilityWorkFor(ctx, early, k, plan.nonSensitive, s.values, s.params.m);
        works.push(utility);
        utility?.answer(rows, k, s.params.p);
        const targets = riskyTargets(analysis, s, spec.attack.minGroupSize, spec.attack.groups);
        const estimates = attackGroups(analysis.grouping, rows, k, targets, s.params.p, s.params.m);
        return {
          ...baseSensitiveReport(s, s.risk.violating),
          relativeError: {},
          queries: 0,
          queryAttempts: 0,
          riskiestGroups: targets.map((t, i) => ({ ...t.base, estimateBefore: estimates[i]!.estimate })),
          releaseFile: 'release',
          distribution: distributionOf(s, rows.sensitive[k]!),
        };
      });
    } else {
      measuredLater = sensitive.map((s) => ({
        ...baseSensitiveReport(s, s.risk.violating),
        riskiestGroups: riskyTargets(analysis, s, spec.attack.minGroupSize, spec.attack.groups).map((t) => ({
          ...t.base,
          estimateBefore: Number.NaN,
        })),
      }));
    }
    return outcomeSettling(ctx, works, (measured) =>
      outcomeOf(
        measuredLater.map((r, k) => {
          const m = measured[k];
          return m ? { ...r, relativeError: { uniformPerturbation: m.errors[0]! }, queries: m.queries, queryAttempts: m.attempts } : r;
        }),
      ),
    );
  } catch (error) {
    early?.close();
    for (const w of works) w?.close();
    throw error;
  }

  function outcomeOf(bySensitive: SensitiveReport[]): MethodOutcome {
    const words = statement(
      spec,
      { sensitive: sensitive.map((s) => ({ column: s.column.name, m: s.params.m, p: s.params.p, source: s.domainSource })), nonSensitive: plan.nonSensitive.map((c) => c.name) },
      { rowCount, microGroups: analysis.grouping.groupCount, leaking: sensitive.reduce((sum, s) => sum + s.risk.violating, 0), firstViolatingRows: sensitive[0]!.risk.violatingRows },
    );
    return {
      plan,
      releases,
      ...withReidentification(randomizedRiskAndUtility(analysis, bySensitive, 'uniformPerturbation'), (identity ??= reidentificationSection(plan, rowCount, null, analysis.grouping))),
      method: {
        type: 'uniform-perturbation',
        title: 'Uniform perturbation (randomized response)',
        parameters: {
          ...(spec.retention !== undefined ? { retention: spec.retention } : { rho1: spec.rho1!, rho2: spec.rho2! }),
          riskEpsilon: spec.epsilon,
          riskDelta: spec.delta,
          riskBound: spec.bound,
        },
        derived: Object.fromEntries(
          sensitive.flatMap((s) => [
            [`${s.column.name}.m`, s.params.m],
            [`${s.column.name}.retention`, formatRational(s.retention)],
            [`${s.column.name}.gammaP`, amplification(s.params.p, s.params.m)],
            [`${s.column.name}.diagonal`, s.params.p + (1 - s.params.p) / s.params.m],
            [`${s.column.name}.offDiagonal`, (1 - s.params.p) / s.params.m],
          ]),
        ),
      },
      guarantee: {
        ...words.published.guarantee,
        holds: true,
        ...(spec.rho1 !== undefined && spec.rho2 !== undefined ? { rho: { rho1: spec.rho1, rho2: spec.rho2 } } : {}),
      },
      summary: words.internal.summary,
      externalSummary: words.published.summary,
      warnings: words.internal.warnings,
      externalWarnings: words.published.warnings,
    };
  }
}
