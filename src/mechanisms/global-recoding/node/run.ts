import type { JobWith } from '../../../common/job/job-parts.js';
import { HierarchyError } from '../../../common/recoding/hierarchy.js';
import { generalizationLoss } from '../../../common/recoding/query-error.js';
import { suppressClasses } from '../../../common/recoding/classes.js';
import { latticeSizeOf } from '../../../common/recoding/lattice.js';
import { reidentificationRisk } from '../../../common/risk/reidentification.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import { JobError } from '../../../jobs/method-kit/job-error.js';
import { resolveRoles } from '../../../jobs/method-kit/plan.js';
import { generalizedView } from '../../../jobs/method-kit/generalized-view.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import type { MethodOutcome } from '../../../jobs/method-kit/outcome.js';
import { loadHierarchies, recodeAt } from '../../../jobs/method-kit/recoding.js';
import { reidentificationSection } from '../../../jobs/method-kit/reidentification.js';
import { ClassBuilder, HistogramTooLarge } from '../class-table.js';
import { engineModel, MEASURE_TITLES, modelText, needsSensitiveColumn, type GlobalRecodingSpec } from '../definition.js';
import { checkNode, maxSuppressed } from '../evaluate.js';
import { modelContext, needsSensitive as modelNeedsSensitive } from '../models.js';
import { quasiColumn, sensitiveColumn, type QuasiColumn, type SensitiveColumn } from '../recoding-input.js';
import { FRONTIER_LIMITS, suppressionFrontier } from '../frontier.js';
import { optimalRecoding } from '../search.js';

/** The longest search after which an assessment still runs one search per suppression limit of the frontier. */
const FRONTIER_SEARCH_BUDGET_MS = 1500;

/** Beyond this many nodes the search's time is not bounded well enough for an interactive tool. */
const MAX_LATTICE_NODES = 5_000_000;

/** The guarantee in words: what the models give, what they do not, and what they protect against. */
export function syntacticStatement(models: string, limitPercent: string): string {
  return (
    `Every released class of records that share their generalized quasi-identifiers meets ${models}; the records of classes that did not were deleted (at most ${limitPercent} of the records). ` +
    'These models are syntactic: they constrain the released table itself, not the process that produced it, so there is no differential-privacy guarantee, and the generalization was chosen by looking at this data. ' +
    'k-anonymity and the risk thresholds protect against re-identification by someone who knows a person\'s quasi-identifiers (the person is hidden among the class); ℓ-diversity and t-closeness against learning the sensitive value from the class. ' +
    'They do not protect against an adversary with other background knowledge, against linking several releases of the same data, or against learning whether a person is in the data. For a differential-privacy guarantee use safe k-anonymity with its private search.'
  );
}

/** Optimal global recoding over the lattice of hierarchy levels, with record suppression up to a limit (as ARX). */
export function runGlobalRecoding(job: JobWith<GlobalRecodingSpec>, imported: ImportedTable, spec: GlobalRecodingSpec, ctx: MethodContext): MethodOutcome {
  ctx.progress('analyze', 0);
  const { table } = imported;
  const needsSensitive = spec.models.some(needsSensitiveColumn);
  const plan = resolveRoles(job, table, { requireSensitive: needsSensitive });
  if (needsSensitive && plan.sensitive.length !== 1) throw new JobError(`ℓ-diversity and t-closeness need exactly one sensitive column; ${plan.sensitive.length} are marked`, 'attributes');
  const releasedPlan = plan.columns.filter((c) => c.role !== 'identifier');
  const released = releasedPlan.map((c) => c.column);
  const quasi = plan.columns.filter((c) => c.role === 'quasi').map((c) => c.column);
  if (quasi.length === 0) throw new JobError('mark at least one quasi-identifier: the classes are formed on them', 'attributes');
  const loaded = loadHierarchies(plan, released, spec.hierarchies, {}, ctx.baseDir);
  const sensitiveName = plan.sensitive[0]?.name;
  const hierarchicalIndex = spec.models.findIndex((m) => m.type === 't-closeness' && m.distance === 'hierarchical');
  if (hierarchicalIndex >= 0 && (!sensitiveName || !loaded.has(sensitiveName))) throw new JobError('hierarchical t-closeness needs a hierarchy for the sensitive column in method.hierarchies', `method.models.${hierarchicalIndex}`);

  let columns: QuasiColumn[];
  let sensitive: SensitiveColumn | undefined;
  try {
    columns = quasi.map((column) => quasiColumn(column, loaded.get(column.name)?.hierarchy));
    sensitive = plan.sensitive.length === 1 ? sensitiveColumn(plan.sensitive[0]!, hierarchicalIndex >= 0 ? loaded.get(sensitiveName!)?.hierarchy : undefined) : undefined;
  } catch (error) {
    if (error instanceof HierarchyError) throw new JobError(error.message, 'method.hierarchies');
    throw error;
  }
  const nodes = latticeSizeOf(columns.map((c) => c.depth));
  if (nodes > MAX_LATTICE_NODES) throw new JobError(`the lattice has ${nodes.toLocaleString('en-US')} nodes, more than the ${MAX_LATTICE_NODES.toLocaleString('en-US')} the search takes; use fewer hierarchy levels or fewer quasi-identifiers`, 'method.hierarchies');

  ctx.progress('analyze', 0.5);
  const models = spec.models.map(engineModel);
  const started = performance.now();
  let search: ReturnType<typeof optimalRecoding>;
  try {
    search = optimalRecoding({ columns, sensitive, rowCount: table.rowCount, models, suppressionLimit: spec.suppressionLimit, measure: spec.measure });
  } catch (error) {
    if (error instanceof HistogramTooLarge) throw new JobError(error.message, 'method.models');
    throw error;
  }
  const searchMs = performance.now() - started;
  // An assessment shows what other limits would give, so the person can choose another trade-off; a run has chosen.
  // Each point is a search of its own: where one search is slow the preview does without them.
  const frontier = ctx.mode === 'assess' && searchMs <= FRONTIER_SEARCH_BUDGET_MS ? suppressionFrontier({ columns, sensitive, rowCount: table.rowCount, models, measure: spec.measure }, [...FRONTIER_LIMITS, spec.suppressionLimit]) : undefined;
  const modelsText = spec.models.map((m) => modelText(m, sensitiveName)).join(' and ');
  const limitPercent = `${Number((spec.suppressionLimit * 100).toFixed(4))} %`;
  const none = `no transformation of the ${nodes.toLocaleString('en-US')} in the lattice meets ${modelsText} with at most ${limitPercent} of the records suppressed; allow more suppression, add hierarchy levels or relax the model`;
  // A run refuses; the risk preview shows what the most generalized transformation would suppress, and that it fails.
  if (!search.optimum && ctx.mode === 'run') throw new JobError(none, 'method.models');
  const optimum = search.optimum;
  const node = optimum ? optimum.node : columns.map((c) => c.depth - 1);
  // Names are data: keyed without a prototype.
  const levels = Object.create(null) as Record<string, number>;
  quasi.forEach((column, j) => (levels[column.name] = node[j]!));

  ctx.progress('release', 0);
  const classes = new ClassBuilder(columns, models.some(modelNeedsSensitive) ? sensitive : undefined, table.rowCount).fromRecords(node);
  const check = checkNode(classes, models, modelContext(sensitive, table.rowCount), maxSuppressed(spec.suppressionLimit, table.rowCount));
  const allRows = Uint32Array.from({ length: table.rowCount }, (_, r) => r);
  const census = suppressClasses(ctx.random, allRows, classes.classOf, classes.count, (c) => check.suppressed[c] === 0);
  const recoding = recodeAt(released, loaded, levels);
  const numeric = new Set(plan.columns.filter((c) => c.column.type !== 'text').map((c) => c.column.name));
  const view = generalizedView(
    recoding.generalized.map((g, i) => ({ ...g, numeric: numeric.has(g.name) && recoding.report[i]!.level === 0 })),
    census.rows,
  );
  const releasedSizes = census.classSizes;
  const loss = generalizationLoss(recoding.generalized, census.rows);
  const satisfyingKey = search.satisfyingExact ? 'satisfyingTransformations' : 'satisfyingTransformationsAtLeast';
  return {
    plan,
    releases: ctx.mode === 'run' ? [{ stem: 'release', sheetName: 'Release', table: view }] : [],
    method: {
      type: 'global-recoding',
      title: 'Optimal global recoding',
      parameters: { models: modelsText, suppressionLimit: spec.suppressionLimit, measure: spec.measure },
      derived: { latticeNodes: nodes, measure: MEASURE_TITLES[spec.measure] },
      levels,
      // The choice among the transformations and its measure depend on the confidential records beyond what the release shows.
      internal: { [satisfyingKey]: search.satisfying, evaluatedNodes: search.evaluated, ...(optimum ? { measureValue: optimum.measure } : {}), searchMilliseconds: Math.round(searchMs) },
      ...(frontier
        ? {
            frontier: frontier.map((point) => {
              const pointLevels = Object.create(null) as Record<string, number>;
              quasi.forEach((column, j) => (pointLevels[column.name] = point.node[j]!));
              return { suppressionLimit: point.suppressionLimit, levels: pointLevels, measure: point.measure, suppressedRecords: point.suppressedRecords, chosen: optimum !== undefined && point.node.every((level, j) => level === optimum.node[j]) };
            }),
          }
        : {}),
    },
    guarantee: {
      name: `${modelsText}, at most ${limitPercent} suppressed (syntactic, no DP guarantee)`,
      statement: syntacticStatement(modelsText, limitPercent),
      formula: spec.models.map(modelFormula).join('; '),
      source: 'Sweeney 2002 (k-anonymity); Machanavajjhala, Kifer, Gehrke, Venkitasubramaniam 2007 (ℓ-diversity); Li, Li, Venkatasubramanian 2007 (t-closeness); the search, the suppression limit and the measures as in ARX 3.9 (Prasser, Kohlmayer et al.)',
      holds: optimum !== undefined && check.satisfies && census.suppressedRows === optimum.suppressedRecords,
    },
    risk: {
      adversary: 'knows a target\'s quasi-identifiers and looks for the target\'s class in the release (prosecutor); with ℓ-diversity or t-closeness, also wants the target\'s sensitive value',
      classes: census.classes,
      minClassSize: census.minClassSize,
      reidentification: { ...reidentificationSection(plan, table.rowCount, null), release: reidentificationRisk(releasedSizes) },
    },
    utility: { relativeError: {}, queryPool: 'not measured for this method yet', generalizationLoss: loss },
    anonymity: {
      model: modelsText,
      neighbours: 'not applicable: syntactic models, no differential-privacy guarantee',
      choice: `the transformation with the least ${MEASURE_TITLES[spec.measure]} among the ${nodes.toLocaleString('en-US')} of the lattice that meet the models with at most ${limitPercent} of the records suppressed (ties: fewest levels in total)`,
      columns: recoding.report,
    },
    suppressed: census.suppressedRows,
    summary: optimum
      ? [
          `Every quasi-identifier was generalized at the level of the optimal transformation (${quasi.map((c) => `${c.name} ${levels[c.name]}`).join(', ')}), chosen by ${spec.measure} among the ${nodes.toLocaleString('en-US')} transformations of the lattice; ${search.satisfyingExact ? search.satisfying.toLocaleString('en-US') : `at least ${search.satisfying.toLocaleString('en-US')}`} of them meet ${modelsText} with at most ${limitPercent} suppressed.`,
          `${census.suppressedRows.toLocaleString('en-US')} record(s) in classes that failed the models were deleted; ${census.rows.length.toLocaleString('en-US')} remain in ${census.classes.toLocaleString('en-US')} classes (the smallest has ${census.minClassSize}); ${spec.measure} ${Number(optimum.measure.toPrecision(10))}, generalization loss ${loss.toFixed(3)}.`,
          'The models are syntactic: no differential-privacy guarantee.',
        ]
      : [`Nothing can be released: ${none}. Even the most generalized transformation would delete ${census.suppressedRows.toLocaleString('en-US')} record(s).`],
    externalSummary: [
      `Every quasi-identifier was generalized at one level of its hierarchy for the whole table, the combination chosen as the least ${spec.measure} that meets ${modelsText}; records of classes that did not meet it were deleted (at most ${limitPercent}).`,
      'The models are syntactic: no differential-privacy guarantee.',
    ],
    warnings: census.suppressedRows > 0 ? [`${census.suppressedRows.toLocaleString('en-US')} record(s) were suppressed with their class.`] : [],
  };
}

function modelFormula(model: GlobalRecodingSpec['models'][number]): string {
  switch (model.type) {
    case 'k-anonymity':
      return '|class| ≥ k';
    case 'l-diversity':
      return model.variant === 'distinct' ? 'distinct sensitive values ≥ ℓ' : model.variant === 'entropy' ? '−Σ p·log₂ p ≥ log₂ ℓ' : 'r₁ < c·(r_ℓ + … + r_m)';
    case 't-closeness':
      return model.distance === 'equal' ? '½ Σ_v |P_class(v) − P(v)| ≤ t' : model.distance === 'ordered' ? 'Σ_i |Σ_{j≤i} (P_class − P)(v_j)| / (m − 1) ≤ t' : 'hierarchical EMD ≤ t';
    case 'maximum-risk':
      return '1 / |class| ≤ r';
    case 'average-risk':
      return 'classes / records ≤ r';
  }
}
