import type { JobWith } from '../../../common/job/job-parts.js';
import { HierarchyError } from '../../../common/recoding/hierarchy.js';
import { generalizationLoss } from '../../../common/recoding/query-error.js';
import { suppressClasses } from '../../../common/recoding/classes.js';
import { latticeSizeOf } from '../../../common/recoding/lattice.js';
import { reidentificationRisk, wildcardReidentificationRisk, withSamplingFraction } from '../../../common/risk/reidentification.js';
import type { GeneralizedColumn } from '../../../common/recoding/hierarchy.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import { JobError } from '../../../common/job/job-error.js';
import { resolveRoles } from '../../../jobs/method-kit/plan.js';
import { generalizedView, releasedAsNumbers } from '../../../jobs/method-kit/generalized-view.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import type { MethodOutcome } from '../../../jobs/method-kit/outcome.js';
import { loadHierarchies, recodeAt } from '../../../jobs/method-kit/recoding.js';
import { reidentificationSection } from '../../../jobs/method-kit/reidentification.js';
import { ClassBuilder, HistogramTooLarge } from '../../../common/recoding/search/class-table.js';
import { attributeOf, engineModel, needsSensitiveColumn, presenceOf, samplingFraction, subsetMembership, type GlobalRecodingSpec } from '../definition.js';
import { limitPercentOf, modelsTextOf, statement } from '../statement.js';
import { DEFAULT_ATTRIBUTE_WEIGHT, MEASURE_TITLES, type LossSettings } from '../../../common/recoding/search/measures.js';
import { importanceOrder, LOCAL_SUPPRESSION_WORK_LIMIT, localSuppression, LocalSuppressionTooLarge, WILDCARD, type LocalSuppressionResult } from '../local-suppression.js';
import { checkNode, maxSuppressed } from '../../../common/recoding/search/evaluate.js';
import { histogramCodes, modelContext, needsSensitive as modelNeedsSensitive } from '../../../common/recoding/search/models.js';
import { quasiColumn, sensitiveColumn, type QuasiColumn, type SensitiveColumn } from '../../../common/recoding/search/recoding-input.js';
import { FRONTIER_LIMITS, suppressionFrontier, type FrontierPoint } from '../frontier.js';
import { MAX_LATTICE_NODES, optimalRecoding, outputRecords, SearchTooLarge, searchWorkLimit } from '../../../common/recoding/search/search.js';
import { searchTooLargeText } from '../../../jobs/method-kit/search-limit.js';
import { nodeQuality } from '../../../common/recoding/search/node-quality.js';
import { boundedSize, boundsOf, type LevelBounds } from '../../../common/recoding/search/level-bounds.js';
import { levelBoundsOf, levelBoundsText } from '../level-bounds.js';
import { heuristicRecoding, type HeuristicResult } from '../../../common/recoding/search/heuristic.js';
import { bestSolutions, solutionOf, type Solution } from '../solution-space.js';
import { heuristicChoiceText, heuristicSettingText, heuristicSummary } from '../heuristic-words.js';
import { formatCount } from '../../../common/format/numbers.js';

/** The longest search after which an assessment still runs one search per suppression limit of the frontier. */
const FRONTIER_SEARCH_BUDGET_MS = 1500;
/** Up to these sizes an assessment evaluates every transformation to count those that satisfy the models. */
const EXACT_COUNT_NODES = 10_000;
const EXACT_COUNT_RECORDS = 100_000;

/** Optimal global recoding over the lattice of hierarchy levels, with record suppression up to a limit (as ARX). */
export function runGlobalRecoding(job: JobWith<GlobalRecodingSpec>, imported: ImportedTable, spec: GlobalRecodingSpec, ctx: MethodContext): MethodOutcome {
  ctx.progress('analyze', 0);
  const { table } = imported;
  const needsSensitive = spec.models.some(needsSensitiveColumn);
  const plan = resolveRoles(job, table, { requireSensitive: needsSensitive });
  const attributes = modelAttributes(spec, plan.sensitive.map((c) => c.name));
  const releasedPlan = plan.columns.filter((c) => c.role !== 'identifier');
  const released = releasedPlan.map((c) => c.column);
  const quasi = plan.columns.filter((c) => c.role === 'quasi').map((c) => c.column);
  if (quasi.length === 0) throw new JobError('mark at least one quasi-identifier: the classes are formed on them', 'attributes');
  const loaded = loadHierarchies(plan, released, spec.hierarchies, {}, ctx.baseDir);
  const sensitiveName = plan.sensitive[0]?.name;
  // The sensitive columns the models name, in the job's column order: the first is attribute 0.
  const used = plan.sensitive.filter((c) => attributes.includes(c.name));
  const hierarchical = new Set<string>();
  spec.models.forEach((m, i) => {
    if (m.type !== 't-closeness' || m.distance !== 'hierarchical') return;
    if (!loaded.has(attributes[i]!)) throw new JobError(`hierarchical t-closeness needs a hierarchy for the sensitive column${plan.sensitive.length > 1 ? ` "${attributes[i]}"` : ''} in method.hierarchies`, `method.models.${i}`);
    hierarchical.add(attributes[i]!);
  });

  let columns: QuasiColumn[];
  let sensitiveColumns: SensitiveColumn[];
  try {
    columns = quasi.map((column) => quasiColumn(column, loaded.get(column.name)?.hierarchy));
    sensitiveColumns = used.map((c) => sensitiveColumn(c, hierarchical.has(c.name) ? loaded.get(c.name)?.hierarchy : undefined));
  } catch (error) {
    if (error instanceof HierarchyError) throw new JobError(error.message, 'method.hierarchies');
    throw error;
  }
  const sensitive = sensitiveColumns[0];
  const moreSensitive = sensitiveColumns.slice(1);
  const sensitiveInput = moreSensitive.length > 0 ? { sensitive, moreSensitive } : { sensitive };
  const nodes = latticeSizeOf(columns.map((c) => c.depth));
  const jobBounds = levelBoundsOf(spec.levels, columns);
  if ('problem' in jobBounds) throw new JobError(jobBounds.problem.message, jobBounds.problem.key);
  const bounds: LevelBounds[] = boundsOf(columns.map((c) => c.depth), jobBounds.bounds);
  const boundsText = levelBoundsText(spec.levels);
  // The transformations the search may choose from: the lattice, or its part within the job's levels.
  const searchedNodes = boundedSize(bounds);
  const strategy = spec.search?.strategy ?? 'auto';
  // Without a model there is nothing to search (one node): never the heuristic.
  const heuristic = spec.models.length > 0 && (strategy === 'heuristic' || (strategy === 'auto' && searchedNodes > MAX_LATTICE_NODES));
  if (searchedNodes > MAX_LATTICE_NODES && !heuristic && spec.models.length > 0) throw new JobError(`the lattice has ${formatCount(searchedNodes)} nodes${boundsText ? ' within the job\'s levels' : ''}, more than the ${formatCount(MAX_LATTICE_NODES)} the exhaustive search takes; leave method.search.strategy at "auto" or set "heuristic" (a best-first search with a time budget), use fewer hierarchy levels or quasi-identifiers, or pin some columns' levels (method.levels)`, 'method.search.strategy');
  const among = boundsText ? `the ${formatCount(searchedNodes)} of the lattice's ${formatCount(nodes)} within the job's levels (${boundsText})` : `the ${formatCount(nodes)} of the lattice`;

  const fraction = samplingFraction(spec.models, table.rowCount);
  if (fraction !== undefined && fraction > 1) throw new JobError(`the population (${formatCount(Math.round(table.rowCount / fraction))}) is smaller than the input's ${formatCount(table.rowCount)} records`, 'method.models');
  const ls = spec.localSuppression;
  const lsWeights = ls ? quasi.map(() => 1) : [];
  ls?.importance.forEach((entry, i) => {
    const j = quasi.findIndex((c) => c.name === entry.column);
    if (j < 0) throw new JobError(`"${entry.column}" is not a quasi-identifier: local suppression suppresses quasi-identifiers only`, `method.localSuppression.importance.${i}.column`);
    lsWeights[j] = entry.weight;
  });

  const lossSettings = lossSettingsOf(spec, quasi.map((c) => c.name));
  // δ-presence: the input is the population, the research subset (marked by its column) is what is released.
  const subset = researchSubset(spec, plan.columns, job.input.path);
  const subsetInput = subset ? { subset } : {};

  ctx.progress('analyze', 0.5);
  // No model (local suppression alone): k = 1 holds everywhere, so the search keeps every column as collected.
  const models = spec.models.length > 0 ? spec.models.map((m, i) => engineModel(m, attributes[i] === undefined ? undefined : used.findIndex((c) => c.name === attributes[i]))) : [{ type: 'k-anonymity' as const, k: 1 }];
  const started = performance.now();
  let search: ReturnType<typeof optimalRecoding>;
  let heuristicResult: HeuristicResult | undefined;
  try {
    // Without a model every node satisfies and the lowest one allowed is best: a lattice of that node alone, not thousands of evaluations.
    const searchedBounds = spec.models.length > 0 ? bounds : bounds.map((b) => ({ min: b.min, max: b.min }));
    const searchInput = { columns, ...sensitiveInput, rowCount: table.rowCount, models, suppressionLimit: spec.suppressionLimit, measure: spec.measure, ...lossSettings, ...subsetInput, bounds: searchedBounds };
    const onProgress = (f: number) => ctx.progress('analyze', 0.5 + 0.5 * f);
    if (heuristic) {
      const steps = spec.search?.steps;
      heuristicResult = heuristicRecoding(searchInput, { milliseconds: 1000 * (spec.search?.timeLimitSeconds ?? 60), ...(steps !== undefined ? { steps } : {}), onProgress });
      search = heuristicResult;
    } else search = optimalRecoding(searchInput, { onProgress, maxWork: searchWorkLimit(table.rowCount) });
  } catch (error) {
    if (error instanceof HistogramTooLarge) throw new JobError(error.message, 'method.models');
    if (error instanceof SearchTooLarge) throw new JobError(searchTooLargeText(error, table.rowCount), 'method.hierarchies');
    throw error;
  }
  const searchMs = performance.now() - started;
  // The preview says how many transformations meet the models and lists them (the solution space the
  // wizard browses): an assessment of a table and lattice of Adult's order evaluates them all (4,320
  // nodes of 30,162 records: 0.6 s, about 0.14 ms a node); larger ones keep the count from the search.
  let solutions: Solution[] | undefined;
  if (ctx.mode === 'assess' && !heuristic && spec.models.length > 0 && search.nodes <= EXACT_COUNT_NODES && table.rowCount <= EXACT_COUNT_RECORDS) {
    const collected: Solution[] = [];
    const all = optimalRecoding({ columns, ...sensitiveInput, rowCount: table.rowCount, models, suppressionLimit: spec.suppressionLimit, measure: spec.measure, ...lossSettings, ...subsetInput, bounds }, { prune: false, onSatisfying: (result, t, check) => collected.push(solutionOf(result, t, check)) });
    search = { ...search, satisfying: all.satisfying, satisfyingExact: true };
    solutions = bestSolutions(collected);
  }
  // An assessment shows what other limits would give, so the person can choose another trade-off; a run has chosen.
  // Each point is a search of its own: where one search is slow the preview does without them. Without a model there is no lattice to search.
  const frontier = ctx.mode === 'assess' && !heuristic && spec.models.length > 0 && searchMs <= FRONTIER_SEARCH_BUDGET_MS ? suppressionFrontier({ columns, ...sensitiveInput, rowCount: table.rowCount, models, measure: spec.measure, ...lossSettings, ...subsetInput, bounds }, [...FRONTIER_LIMITS, spec.suppressionLimit]) : undefined;
  const modelsText = modelsTextOf(spec, sensitiveName);
  const limitPercent = limitPercentOf(spec);
  const exhausted = heuristicResult !== undefined && heuristicResult.stoppedBy !== 'completed';
  const none = exhausted
    ? `the heuristic search found no transformation that meets ${modelsText} with at most ${limitPercent} of the records suppressed among the ${formatCount(heuristicResult!.steps)} it evaluated within its budget; give it more time (method.search.timeLimitSeconds) or steps, pin some columns' levels (method.levels), allow more suppression or relax the model`
    : noRecodingText(boundsText ? searchedNodes : nodes, boundsText ?? '', modelsText, limitPercent, quasi.filter((_, j) => columns[j]!.depth === 1).map((c) => c.name));
  // A run refuses; the risk preview shows what the most generalized transformation would suppress, and that it fails.
  if (!search.optimum && ctx.mode === 'run') throw new JobError(none, exhausted ? 'method.search' : 'method.models');
  const optimum = search.optimum;
  const node = optimum ? optimum.node : bounds.map((b) => b.max);
  // Names are data: keyed without a prototype.
  const levels = Object.create(null) as Record<string, number>;
  quasi.forEach((column, j) => (levels[column.name] = node[j]!));

  ctx.progress('release', 0);
  const classes = new ClassBuilder(columns, models.some(modelNeedsSensitive) ? histogramCodes(sensitiveColumns) : undefined, table.rowCount, undefined, subset).fromRecords(node);
  const check = checkNode(classes, models, modelContext(sensitiveColumns, table.rowCount), maxSuppressed(spec.suppressionLimit, outputRecords({ rowCount: table.rowCount, ...subsetInput })));
  // The records the release is drawn from: every one, or the research subset's alone (ARX's release with a subset).
  const sourceRows = subset ? Uint32Array.from(Array.from(subset).flatMap((inside, r) => (inside ? [r] : []))) : Uint32Array.from({ length: table.rowCount }, (_, r) => r);
  const census = suppressClasses(ctx.random, sourceRows, subset ? Uint32Array.from(sourceRows, (r) => classes.classOf[r]!) : classes.classOf, classes.count, (c) => check.suppressed[c] === 0);
  const recoding = recodeAt(released, loaded, levels);
  const quasiNames = new Set(quasi.map((c) => c.name));
  let generalized: readonly GeneralizedColumn[] = recoding.generalized;
  let local: LocalOutcome | undefined;
  if (ls) {
    if (census.rows.length > 0 && census.rows.length < ls.k) throw new JobError(`local suppression to ${ls.k}-anonymity needs at least ${ls.k} released records`, 'method.localSuppression.k');
    try {
      local = suppressCells(recoding.generalized.filter((g) => quasiNames.has(g.name)), census.rows, ls.k, quasi.map((c, j) => ({ name: c.name, weight: lsWeights[j]! })), (f) => ctx.progress('release', 0.05 + 0.9 * f));
    } catch (error) {
      if (error instanceof LocalSuppressionTooLarge) {
        throw new JobError(
          `${error.message} (about 2–3 minutes of work on the 2-core development machine): generalize further first (a model such as k-anonymity, or hierarchy levels, leaves fewer records below k and fewer distinct tuples), or leave the small classes to record suppression`,
          'method.localSuppression',
        );
      }
      throw error;
    }
    const byName = new Map(local.columns.map((g) => [g.name, g]));
    generalized = recoding.generalized.map((g) => byName.get(g.name) ?? g);
  }
  const numeric = new Set(plan.columns.filter((c) => c.column.type !== 'text').map((c) => c.column.name));
  const view = generalizedView(
    generalized.map((g, i) => ({ ...g, numeric: releasedAsNumbers(g, numeric.has(g.name), recoding.report[i]!.level) && !(local && local.result.cellsPerColumn[quasi.findIndex((c) => c.name === g.name)]! > 0) })),
    census.rows,
  );
  const releasedSizes = census.classSizes;
  // The loss of each value from its hierarchy alone, not from the data's distinct values (which
  // suppressed records also count): what the release and the job show, nothing more. A cell local
  // suppression made "*" loses everything.
  const publicByName = new Map(recoding.publicLoss.map((g) => [g.name, g]));
  const loss = generalizationLoss(
    generalized.map((g) => {
      const hierarchyOnly = publicByName.get(g.name)!.loss;
      return { ...g, loss: Float64Array.from(g.loss, (value, code) => (code < hierarchyOnly.length ? hierarchyOnly[code]! : value)) };
    }),
    census.rows,
  );
  const identity = reidentificationSection(plan, table.rowCount, null);
  const original = identity.original ?? reidentificationRisk([]);
  const releaseRisk = local ? wildcardReidentificationRisk(local.result.frequencies, local.tuples) : reidentificationRisk(releasedSizes);
  const withPopulation = (r: typeof releaseRisk) => (fraction === undefined ? r : withSamplingFraction(r, fraction));
  const anonymityColumns = local
    ? recoding.report.map((c) => {
        const j = quasi.findIndex((q) => q.name === c.name);
        return j < 0 ? c : { ...c, suppressedCells: local.result.cellsPerColumn[j]! };
      })
    : recoding.report;
  // ARX's quality measures over every input record: not the subset's release (no figures with a research subset).
  const quality = optimum && !local && !subset ? qualityFigures(columns, node, classes.classOf, check.suppressed, table.rowCount) : {};
  const satisfyingKey = search.satisfyingExact ? 'satisfyingTransformations' : 'satisfyingTransformationsAtLeast';
  const words = statement(spec, { sensitive: sensitiveName, heuristic }, {
    optimum,
    levels: quasi.map((c) => ({ name: c.name, level: levels[c.name]! })),
    nodes: searchedNodes,
    bounds: boundsText,
    heuristic: heuristicResult ? heuristicSummary(heuristicResult, spec.measure) : undefined,
    satisfying: search.satisfying,
    satisfyingExact: search.satisfyingExact,
    suppressedRows: census.suppressedRows,
    releasedRows: census.rows.length,
    classes: census.classes,
    minClassSize: census.minClassSize,
    loss,
    local: local ? { cells: local.result.cells, records: local.result.records, perColumn: local.columns.map((g, j) => ({ name: g.name, cells: local.result.cellsPerColumn[j]! })), recordsBelowK: local.recordsBelowK } : undefined,
    none,
  });
  return {
    plan,
    releases: ctx.mode === 'run' ? [{ stem: 'release', sheetName: 'Release', table: view }] : [],
    method: {
      type: 'global-recoding',
      title: 'Optimal global recoding',
      parameters: {
        models: modelsText,
        suppressionLimit: spec.suppressionLimit,
        measure: spec.measure,
        ...(spec.gsFactor !== undefined ? { gsFactor: spec.gsFactor } : {}),
        ...(spec.attributeWeights !== undefined ? { attributeWeights: lossWeightsText(lossSettings.loss!.weights, quasi.map((c) => c.name)) } : {}),
        ...(boundsText ? { levels: boundsText } : {}),
        ...(heuristic ? { search: heuristicSettingText(spec.search) } : {}),
        ...(ls ? { localSuppression: `k = ${ls.k}; columns least important first: ${local!.order.join(', ')}` } : {}),
      },
      // The suppressed cells are in the release ("*"): publishable, as the levels are.
      derived: { latticeNodes: nodes, ...(boundsText ? { searchedNodes } : {}), ...(heuristic ? { searchStrategy: 'heuristic' } : {}), measure: MEASURE_TITLES[spec.measure], ...(local ? { suppressedCells: local.result.cells, recordsWithSuppressedCells: local.result.records } : {}) },
      levels,
      // The choice among the transformations and its measure depend on the confidential records beyond what the release shows;
      // how many records record suppression would have deleted instead is a count of the input's small classes.
      internal: {
        [satisfyingKey]: search.satisfying,
        evaluatedNodes: search.evaluated,
        ...(optimum ? { measureValue: optimum.measure } : {}),
        searchMilliseconds: Math.round(searchMs),
        ...(heuristicResult ? { heuristicSteps: heuristicResult.steps, heuristicCompleted: heuristicResult.stoppedBy === 'completed' ? 1 : 0, ...(heuristicResult.lowerBound !== undefined ? { measureLowerBound: heuristicResult.lowerBound } : {}) } : {}),
        ...(local ? { recordsRecordSuppressionWouldDelete: local.recordsBelowK, localSuppressionPasses: local.result.passes } : {}),
        ...quality,
      },
      ...(solutions
        ? {
            solutions: solutions.map((s) => {
              const solutionLevels = Object.create(null) as Record<string, number>;
              quasi.forEach((column, j) => (solutionLevels[column.name] = s.node[j]!));
              return { levels: solutionLevels, measure: s.measure, suppressedRecords: s.suppressedRecords, highestRisk: s.highestRisk, chosen: optimum !== undefined && s.node.every((level, j) => level === optimum.node[j]) };
            }),
          }
        : {}),
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
      ...words.published.guarantee,
      holds: optimum !== undefined && check.satisfies && census.suppressedRows === optimum.suppressedRecords && (!local || local.result.frequencies.every((f) => f >= ls!.k)),
    },
    risk: {
      adversary: 'knows a target\'s quasi-identifiers and looks for the target\'s class in the release (prosecutor); with ℓ-diversity or t-closeness, also wants the target\'s sensitive value',
      // With local suppression: the distinct released tuples, and the smallest wildcard frequency (records compatible with a record).
      classes: local ? local.tuples : census.classes,
      minClassSize: local ? smallest(local.result.frequencies) : census.minClassSize,
      reidentification: {
        ...identity,
        ...(fraction !== undefined
          ? { population: `sampling fraction π = ${Number(fraction.toPrecision(6))}: journalistHighest is the bound 1 / f (a class of f records stands for at least f people); the journalist estimates π / f assume it stands for its expected f / π people (uniform sampling) and are no bound (a record unique in the data may be unique in the population)` }
          : {}),
        original: withPopulation(original),
        release: withPopulation(releaseRisk),
      },
    },
    utility: { relativeError: {}, queryPool: 'not measured for this method yet', generalizationLoss: loss },
    anonymity: {
      model: modelsText,
      neighbours: 'not applicable: syntactic models, no differential-privacy guarantee',
      choice: heuristic ? heuristicChoiceText(MEASURE_TITLES[spec.measure], among, modelsText, limitPercent) : `the transformation with the least ${MEASURE_TITLES[spec.measure]}${lossSettings.loss ? ` with ${lossChoiceText(lossSettings.loss, quasi.map((c) => c.name))}` : ''} among ${among} that meet the models with at most ${limitPercent} of the records suppressed (ties: fewest levels in total)`,
      columns: anonymityColumns,
    },
    suppressed: census.suppressedRows,
    summary: words.internal.summary,
    externalSummary: words.published.summary,
    warnings: words.internal.warnings,
    externalWarnings: words.published.warnings,
    ...(optimum ? {} : { cannotRun: { message: refusalWithHint(none, frontier), key: 'method.models' } }),
  };
}

/**
 * The sensitive column of each model (undefined for models of the quasi-identifiers): its `attribute`,
 * or the job's one sensitive column. Several sensitive columns: each model names its own, as in ARX.
 */
function modelAttributes(spec: GlobalRecodingSpec, sensitive: readonly string[]): (string | undefined)[] {
  return spec.models.map((model, i) => {
    if (!needsSensitiveColumn(model)) return undefined;
    const named = attributeOf(model);
    if (named === undefined) {
      if (sensitive.length === 1) return sensitive[0];
      throw new JobError(`${sensitive.length} columns are marked sensitive: name the one this model applies to ("attribute": one of ${sensitive.map((s) => `"${s}"`).join(', ')})`, `method.models.${i}.attribute`);
    }
    if (!sensitive.includes(named)) throw new JobError(`"${named}" is not a sensitive column: mark it "sensitive" in attributes${sensitive.length > 0 ? ` (sensitive: ${sensitive.map((s) => `"${s}"`).join(', ')})` : ''}`, `method.models.${i}.attribute`);
    return named;
  });
}

/**
 * The research subset of a δ-presence model: 1 for each record whose subset column reads as in it
 * (subsetMembership). The column is named in the job, is no quasi-identifier or sensitive column (it
 * would be generalized or published as the model's value), and holds no other value.
 */
function researchSubset(spec: GlobalRecodingSpec, columns: ReturnType<typeof resolveRoles>['columns'], inputPath: string): Uint8Array | undefined {
  const presence = presenceOf(spec.models);
  if (!presence) return undefined;
  const key = `method.models.${spec.models.indexOf(presence)}.subset`;
  const planned = columns.find((c) => c.column.name === presence.subset);
  if (!planned) throw new JobError(`"${presence.subset}" is not a column of ${inputPath} (the research subset's column)`, key);
  if (planned.role === 'quasi' || planned.role === 'sensitive') throw new JobError(`"${presence.subset}" marks the research subset and is a ${planned.role === 'quasi' ? 'quasi-identifier' : 'sensitive column'}${planned.defaulted ? ' (the default of a column the job does not name)' : ''}: mark it "insensitive" (released, saying "in" on every record) or "identifier" (not released) in attributes`, key);
  const { column } = planned;
  const byCode = column.dictionary.map((value, code) => (code === 0 ? undefined : subsetMembership(value)));
  const mask = new Uint8Array(column.codes.length);
  let size = 0;
  for (let r = 0; r < column.codes.length; r++) {
    const code = column.codes[r]!;
    const inside = byCode[code];
    if (inside === undefined) {
      const value = column.dictionary[code]!;
      throw new JobError(`${inputPath}, column "${presence.subset}", record ${r + 1}: ${code === 0 ? 'no value' : `"${value}"`}; the research subset's column holds 1, true or yes (in the subset) and 0, false or no (not), in any case`, key);
    }
    if (inside) {
      mask[r] = 1;
      size++;
    }
  }
  if (size === 0) throw new JobError(`no record of ${inputPath} is in the research subset ("${presence.subset}" says 0, false or no on every one): there is nothing to release`, key);
  return mask;
}

/**
 * The Loss's settings for the search, only when the job states one (a job without them searches as
 * before, to the bit): each quasi-identifier's weight, ARX's 0.5 for one not named.
 */
function lossSettingsOf(spec: GlobalRecodingSpec, quasi: readonly string[]): { loss?: LossSettings } {
  if (spec.gsFactor === undefined && spec.attributeWeights === undefined) return {};
  const weights = quasi.map(() => DEFAULT_ATTRIBUTE_WEIGHT);
  spec.attributeWeights?.forEach((entry, i) => {
    const j = quasi.indexOf(entry.column);
    if (j < 0) throw new JobError(`"${entry.column}" is not a quasi-identifier: attribute weights weigh the quasi-identifiers in the Loss`, `method.attributeWeights.${i}.column`);
    weights[j] = entry.weight;
  });
  return { loss: { gsFactor: spec.gsFactor ?? 0.5, weights } };
}

function lossChoiceText(loss: LossSettings, quasi: readonly string[]): string {
  return `ARX's generalization/suppression factor ${loss.gsFactor} and attribute weights ${lossWeightsText(loss.weights, quasi)}`;
}

/** Every quasi-identifier's weight as the search used it (named or ARX's default), for the report's parameters. */
function lossWeightsText(weights: readonly number[], quasi: readonly string[]): string {
  return quasi.map((name, j) => `${name} ${weights[j]}`).join(', ');
}

/**
 * ARX's quality measures of the chosen transformation (src/common/utility/quality.ts), as internal
 * figures: non-uniform entropy, ambiguity and KL divergence read the input's own values, precision
 * and discernibility the suppressed count, which the published report does not state. Without local
 * suppression only: its "*" cells are not a level of a hierarchy. Keys per attribute end in the column's name.
 */
function qualityFigures(columns: readonly QuasiColumn[], node: readonly number[], classOf: Uint32Array, suppressed: Uint8Array, rowCount: number): Record<string, number> {
  const q = nodeQuality(columns, node, classOf, suppressed, rowCount);
  // Names are data: keyed without a prototype.
  const out = Object.create(null) as Record<string, number>;
  Object.assign(out, { qualityHeight: q.height, qualityRelativeHeight: q.relativeHeight, qualityAverageClassSize: q.averageClassSize, qualityDiscernibility: q.discernibility, qualityAmbiguity: q.ambiguity, qualityKlDivergenceBits: q.klDivergence });
  for (const a of q.attributes) {
    out[`qualityPrecision ${a.name}`] = a.precision;
    out[`qualityNonUniformEntropyBits ${a.name}`] = a.nonUniformEntropy;
  }
  return out;
}

/** The refusal, with the smallest suppression limit of the frontier that would let the search succeed. */
function refusalWithHint(none: string, frontier: readonly FrontierPoint[] | undefined): string {
  const first = frontier?.[0];
  if (!first) return none;
  return `${none} (a suppression limit of ${Number((first.suppressionLimit * 100).toFixed(4))} % would)`;
}

/** The smallest frequency, 0 when nothing is released (a loop: spreading a million values overflows the stack). */
function smallest(values: Uint32Array): number {
  let min = values.length > 0 ? values[0]! : 0;
  for (const v of values) if (v < min) min = v;
  return min;
}

interface LocalOutcome {
  readonly result: LocalSuppressionResult;
  /** The quasi-identifiers as released: "*" where a cell was suppressed. */
  readonly columns: readonly GeneralizedColumn[];
  /** Column names, least important first. */
  readonly order: readonly string[];
  /** Distinct released tuples after suppression. */
  readonly tuples: number;
  /** Released records in classes of identical tuples below k before local suppression: what record suppression would delete. */
  readonly recordsBelowK: number;
}

/** Local suppression on the released rows' generalized quasi-identifiers; "*" joins each dictionary. */
function suppressCells(columns: readonly GeneralizedColumn[], releasedRows: Uint32Array, k: number, weights: readonly { name: string; weight: number }[], onProgress: (fraction: number) => void): LocalOutcome {
  // In the input's order (the release's is shuffled): the greedy breaks ties by record order, as sdcMicro by the data's.
  const rows = Uint32Array.from(releasedRows).sort();
  const codes = columns.map((g) => Uint32Array.from(rows, (r) => g.codes[r]!));
  const distinct = codes.map((c) => new Set(c).size);
  const order = importanceOrder(weights.map((w) => w.weight), distinct);
  const result = localSuppression({ codes, rowCount: rows.length, k, order }, { onProgress, maxWork: LOCAL_SUPPRESSION_WORK_LIMIT });
  const tupleCount = (cs: readonly Uint32Array[]) => {
    const sizes = new Map<string, number>();
    for (let i = 0; i < rows.length; i++) {
      const key = cs.map((c) => c[i]).join(',');
      sizes.set(key, (sizes.get(key) ?? 0) + 1);
    }
    return sizes;
  };
  const before = tupleCount(codes);
  let recordsBelowK = 0;
  for (const size of before.values()) if (size < k) recordsBelowK += size;
  const released = columns.map((g, j): GeneralizedColumn => {
    if (result.cellsPerColumn[j] === 0) return g;
    const star = g.dictionary.length;
    const out = Uint32Array.from(g.codes);
    const after = result.codes[j]!;
    for (let i = 0; i < rows.length; i++) if (after[i] === WILDCARD) out[rows[i]!] = star;
    const loss = new Float64Array(star + 1);
    loss.set(g.loss);
    loss[star] = 1;
    return { name: g.name, codes: out, dictionary: [...g.dictionary, '*'], loss };
  });
  return { result, columns: released, order: order.map((j) => weights[j]!.name), tuples: tupleCount(result.codes).size, recordsBelowK };
}

/**
 * Why nothing can be released, in the custodian's words: how many ways of recoding were tried, and
 * the likeliest cause named first: quasi-identifiers without a hierarchy stay as collected in every
 * one of them, so records unique on those alone can never be hidden in a class.
 */
function noRecodingText(count: number, within: string, modelsText: string, limitPercent: string, withoutHierarchy: readonly string[]): string {
  const bounded = within ? ` within the job's levels (${within})` : '';
  // One transformation is a single way (the columns as the job's levels leave them), not "none of the 1 ways".
  const none = count === 1
    ? `the only way of recoding ${bounded ? bounded.slice(1) : "there is (each column at its one hierarchy level)"} does not meet ${modelsText} with at most ${limitPercent} of the records suppressed`
    : `none of the ${formatCount(count)} ways of recoding (each combination of the columns' hierarchy levels)${bounded} meets ${modelsText} with at most ${limitPercent} of the records suppressed`;
  if (withoutHierarchy.length === 0) return `${none}; allow more suppression, add hierarchy levels or relax the model`;
  const names = withoutHierarchy.map((n) => `"${n}"`);
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  const one = names.length === 1;
  return `${none}: ${list} ${one ? 'has' : 'have'} no hierarchy, so ${one ? 'it stays' : 'they stay'} as collected in every one; give ${one ? 'it' : 'them'} a hierarchy (or the role "identifier" if ${one ? 'it is' : 'they are'} not needed), allow more suppression or relax the model`;
}

