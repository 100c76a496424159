import type { JobWith } from '../../../common/job/job-parts.js';
import { fixedSizeSubsampleEpsilon } from '../../../common/dp/sampling-amplification.js';
import { partitionedRecoding, randomParts, type PrivacyModel } from '../../../common/recoding/partitioned.js';
import { generalizationLoss } from '../../../common/recoding/query-error.js';
import { classesOf } from '../../../common/recoding/classes.js';
import { GrowableUint32 } from '../../../common/table/growable.js';
import { reidentificationRisk } from '../../../common/risk/reidentification.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import { JobError } from '../../../common/job/job-error.js';
import type { PartitionedRecodingSpec } from '../definition.js';
import { modelText, statement } from '../statement.js';
import { resolveRoles } from '../../../jobs/method-kit/plan.js';
import { generalizedView, releasedAsNumbers } from '../../../jobs/method-kit/generalized-view.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import type { MethodOutcome } from '../../../jobs/method-kit/outcome.js';
import { loadHierarchies, recodeAt } from '../../../jobs/method-kit/recoding.js';
import { searchPartLevels } from './search-levels.js';
import { MEASURE_TITLES } from '../../../common/recoding/search/measures.js';
import { reidentificationSection } from '../../../jobs/method-kit/reidentification.js';

/** Random disjoint parts, each anonymized with the same global recoding (Clifton et al., “A partitioned recoding scheme for privacy preserving data publishing” (2020)). */
export function runPartitionedRecoding(job: JobWith<PartitionedRecodingSpec>, imported: ImportedTable, spec: PartitionedRecodingSpec, ctx: MethodContext): MethodOutcome {
  ctx.progress('analyze', 0);
  const { table } = imported;
  const model = spec.model as PrivacyModel;
  const plan = resolveRoles(job, table, { requireSensitive: model.type !== 'k-anonymity' });
  if (model.type !== 'k-anonymity' && plan.sensitive.length !== 1) {
    throw new JobError(`${model.type} needs exactly one sensitive column; ${plan.sensitive.length} are marked`, 'attributes');
  }
  if (spec.parts > table.rowCount) throw new JobError(`${spec.parts} parts for ${table.rowCount} records: each part needs at least one record`, 'method.parts');
  const releasedPlan = plan.columns.filter((c) => c.role !== 'identifier');
  const released = releasedPlan.map((c) => c.column);
  const quasiInput = releasedPlan.filter((c) => c.role === 'quasi').map((c) => c.column);
  if (quasiInput.length === 0) throw new JobError('mark at least one quasi-identifier: classes are formed on them', 'attributes');
  // The split depends on n and P only; drawn first, so a search and the release see the same parts.
  const split = randomParts(ctx.random, table.rowCount, spec.parts);
  const loaded = loadHierarchies(plan, released, spec.hierarchies, spec.levels === 'search' ? {} : spec.levels, ctx.baseDir);
  const searched = spec.levels === 'search' ? searchPartLevels(plan, quasiInput, loaded, split, table.rowCount, model, spec, (f) => ctx.progress('analyze', 0.5 + 0.5 * f)) : undefined;
  const recoding = recodeAt(released, loaded, searched ? searched.levels : (spec.levels as Record<string, number>));
  const quasi = recoding.generalized.filter((_, i) => releasedPlan[i]!.role === 'quasi');
  const sensitiveColumn = plan.sensitive[0];
  ctx.progress('release', 0);
  const result = partitionedRecoding(
    ctx.random,
    quasi,
    sensitiveColumn ? { codes: sensitiveColumn.codes, m: sensitiveColumn.dictionary.length - 1 } : undefined,
    table.rowCount,
    spec.parts,
    model,
    split,
  );
  const rows = new GrowableUint32(table.rowCount);
  for (const part of result.parts) for (const r of part.rows) rows.push(r);
  const releasedRows = rows.toArray();
  const suppressed = result.parts.reduce((sum, p) => sum + p.suppressedRows, 0);
  const classes = result.parts.reduce((sum, p) => sum + p.classes, 0);
  const minClassSize = Math.min(...result.parts.filter((p) => p.classes > 0).map((p) => p.minClassSize));
  const { classOf, count } = classesOf(quasi, releasedRows);
  const sizes = new Uint32Array(count);
  for (let i = 0; i < classOf.length; i++) sizes[classOf[i]!]!++;
  const numeric = new Set(plan.columns.filter((c) => c.column.type !== 'text').map((c) => c.column.name));
  const view = generalizedView(
    recoding.generalized.map((g, i) => ({ ...g, numeric: releasedAsNumbers(g, numeric.has(g.name), recoding.report[i]!.level) })),
    releasedRows,
    spec.parts > 1 ? { ofRow: result.partOfRow, count: spec.parts } : undefined,
  );
  // Parts differ by one record at most; Theorem 2 must take the largest, ⌈n/P⌉ of n.
  const share = Math.ceil(table.rowCount / spec.parts) / table.rowCount;
  const epsilonPrime = spec.parts > 1 ? [0.1, 0.5, 1, 2].map((epsilon) => {
    const prime = fixedSizeSubsampleEpsilon(epsilon, share);
    return { epsilon, epsilonPrime: prime, reported: Math.min(epsilon, prime) };
  }) : undefined;
  // From the hierarchies alone, as global recoding and safe k publish it (the data's distinct values include deleted records').
  const loss = generalizationLoss(recoding.publicLoss, releasedRows);
  const words = statement(
    { ...spec, model },
    { search: searched ? { levels: searched.levels, nodes: searched.result.nodes } : undefined },
    {
      records: table.rowCount,
      released: releasedRows.length,
      classes,
      suppressed,
      worst: result.parts.map((p) => p.worst),
      loss,
      share,
      search: searched ? { satisfying: searched.result.satisfying, satisfyingExact: searched.result.satisfyingExact, evaluated: searched.result.evaluated } : undefined,
    },
  );
  return {
    plan,
    releases: ctx.mode === 'run' ? [{ stem: 'release', sheetName: 'Release', table: view }] : [],
    method: {
      type: 'partitioned-recoding',
      title: 'Partitioned recoding',
      parameters: {
        parts: spec.parts,
        model: modelText(model),
        ...(searched ? { levels: 'search', suppressionLimit: spec.suppressionLimit, measure: spec.measure } : Object.fromEntries(recoding.report.filter((c) => c.level > 0).map((c) => [`level.${c.name}`, c.level]))),
      },
      derived: searched ? { latticeNodes: searched.result.nodes, measure: MEASURE_TITLES[spec.measure] } : {},
      // The search's levels, as global recoding gives them: the release shows them.
      ...(searched ? { levels: searched.levels } : {}),
      // ⌈n/P⌉ and its share give the input's size away: internal, with ε′ that is computed from them; so do the search's figures.
      internal: {
        partSize: Math.ceil(table.rowCount / spec.parts),
        partShare: share,
        ...(searched
          ? {
              [searched.result.satisfyingExact ? 'satisfyingTransformations' : 'satisfyingTransformationsAtLeast']: searched.result.satisfying,
              evaluatedNodes: searched.result.evaluated,
              measureValue: searched.result.optimum!.measure,
              searchMilliseconds: Math.round(searched.milliseconds),
            }
          : {}),
      },
    },
    guarantee: {
      ...words.published.guarantee,
      holds: result.parts.every((p) => p.classes === 0 || (model.type === 'k-anonymity' ? p.minClassSize >= model.k : model.type === 'l-diversity' ? p.worst >= model.l : p.worst <= model.t + 1e-12)),
    },
    risk: {
      adversary: 'knows a target\'s quasi-identifiers and looks for the target\'s class in the release',
      classes,
      minClassSize: Number.isFinite(minClassSize) ? minClassSize : 0,
      reidentification: { ...reidentificationSection(plan, table.rowCount, null), release: reidentificationRisk(sizes) },
    },
    utility: { relativeError: {}, queryPool: 'not measured for this method yet', generalizationLoss: loss },
    anonymity: {
      model: modelText(model),
      neighbours: 'bounded for the ε′ of Theorem 2 (datasets of equal size differing in one record)',
      columns: recoding.report,
      parts: result.parts.map((p) => ({ part: p.part, size: p.size, released: p.rows.length, classes: p.classes, worst: p.worst, suppressed: p.suppressedRows })),
      ...(epsilonPrime ? { epsilonPrime } : {}),
    },
    suppressed,
    summary: words.internal.summary,
    externalSummary: words.published.summary,
    warnings: words.internal.warnings,
    externalWarnings: words.published.warnings,
  };
}
