import type { JobWith } from '../../../common/job/job-parts.js';
import { fixedSizeSubsampleEpsilon } from '../../../common/dp/sampling-amplification.js';
import { partitionedRecoding, randomParts, type PrivacyModel } from '../../../common/recoding/partitioned.js';
import { generalizationLoss } from '../../../common/recoding/query-error.js';
import { classesOf } from '../../../common/recoding/classes.js';
import { GrowableUint32 } from '../../../common/table/growable.js';
import { reidentificationRisk } from '../../../common/risk/reidentification.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import { JobError } from '../../../jobs/method-kit/job-error.js';
import type { PartitionedRecodingSpec } from '../definition.js';
import { resolveRoles } from '../../../jobs/method-kit/plan.js';
import { generalizedView, releasedAsNumbers } from '../../../jobs/method-kit/generalized-view.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import type { MethodOutcome } from '../../../jobs/method-kit/outcome.js';
import { loadHierarchies, recodeAt } from '../../../jobs/method-kit/recoding.js';
import { searchPartLevels } from './search-levels.js';
import { MEASURE_TITLES } from '../../../common/recoding/search/measures.js';
import { reidentificationSection } from '../../../jobs/method-kit/reidentification.js';

function modelText(model: PrivacyModel): string {
  return model.type === 'k-anonymity' ? `${model.k}-anonymity` : model.type === 'l-diversity' ? `distinct ${model.l}-diversity` : `${model.t}-closeness (equal-distance EMD)`;
}

/**
 * What the parts' guarantee gives the release as a whole. Equal generalized tuples of different
 * parts form one class of the union: its size is the sum (≥ k) and its values a superset (≥ ℓ
 * distinct), so k-anonymity and distinct ℓ-diversity carry over. t-closeness does not: each part's
 * classes were compared with that part's distribution, and a merged class, or the whole input's
 * distribution, can put the distance above t (an independent check measured 0.3003 for t = 0.3).
 */
export function unionSentence(model: PrivacyModel): string {
  return model.type === 't-closeness'
    ? `. The guarantee is per part: every released class is within ${model.t} of its own part's distribution of the sensitive value; the union of the parts is not claimed to be ${model.t}-close (a class merged across parts, or compared with the whole input's distribution, can be further than ${model.t}).`
    : '. Classes of different parts share the recoding, so the union keeps the property: equal generalized tuples of different parts form one class, as large as their sum and holding every value of each.';
}

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
  const worstText = model.type === 'k-anonymity' ? 'smallest class' : model.type === 'l-diversity' ? 'fewest distinct values' : 'largest distance';
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
      name: `${modelText(model)} in every part`,
      statement:
        (spec.parts > 1 ? `The records were split at random into ${spec.parts} disjoint parts whose sizes differ by at most one, and every part was generalized with the same recoding; ` : 'The records were kept as one part (no split) and generalized with one recoding; ') +
        `every class of records sharing their generalized quasi-identifiers that did not meet ${modelText(model)} was deleted, so every released class of every part meets it` +
        (spec.parts > 1 ? unionSentence(model) : '.') +
        (searched
          ? ` The levels were chosen by a search over the ${searched.result.nodes.toLocaleString('en-US')} recodings of the lattice as the least ${MEASURE_TITLES[spec.measure]} whose failing classes hold at most ${Number((spec.suppressionLimit * 100).toFixed(4))} % of the records, looking at this data: the model is syntactic and no differential-privacy guarantee follows.`
          : ''),
      formula:
        model.type === 'k-anonymity'
          ? '|class| ≥ k for every released class of every part'
          : model.type === 'l-diversity'
            ? 'distinct sensitive values ≥ ℓ in every released class'
            : '½ Σ_v |P_class(v) − P_part(v)| ≤ t in every released class',
      source: 'Clifton et al., "A Partitioned Recoding Scheme for Privacy Preserving Data Publishing", PSD 2020, footnote 1 and Theorem 2; the random split depends only on n and P',
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
    summary: [
      ...(searched
        ? [`Levels chosen by the search (${Object.entries(searched.levels).map(([c, l]) => `${c} ${l}`).join(', ')}): ${searched.result.satisfyingExact ? '' : 'at least '}${searched.result.satisfying.toLocaleString('en-US')} of the ${searched.result.nodes.toLocaleString('en-US')} recodings meet the model in every part within the limit; ${searched.result.evaluated.toLocaleString('en-US')} evaluated.`]
        : []),
      `The ${table.rowCount.toLocaleString('en-US')} records were ${spec.parts > 1 ? `split at random into ${spec.parts} parts; each part was generalized with the same recoding` : 'generalized with one recoding (no split)'} and every class that did not meet ${modelText(model)} was deleted.`,
      `${releasedRows.length.toLocaleString('en-US')} records remain in ${classes.toLocaleString('en-US')} classes (${worstText} per part: ${result.parts.map((p) => Number(p.worst.toFixed(4))).join(', ')}); generalization loss ${loss.toFixed(3)}.`,
      ...(epsilonPrime ? [`A differentially private mechanism run on one part of ${(share * 100).toFixed(1)}% of the records is ε′-DP by Theorem 2; the report lists min(ε, ε′).`] : []),
    ],
    externalSummary: [
      `The records were ${spec.parts > 1 ? `split at random into ${spec.parts} parts; each part was generalized with the same recoding` : 'generalized with one recoding (no split)'} and every class that did not meet ${modelText(model)} was deleted.`,
      ...(searched ? [`The recoding (${Object.entries(searched.levels).map(([c, l]) => `${c} ${l}`).join(', ')}) was chosen by a search for the least ${spec.measure} with at most ${Number((spec.suppressionLimit * 100).toFixed(4))} % of the records deleted.`] : []),
    ],
    warnings:
      suppressed > 0
        ? [
            `${suppressed.toLocaleString('en-US')} of ${table.rowCount.toLocaleString('en-US')} records (${((100 * suppressed) / table.rowCount).toFixed(1)} %) were deleted with their class` +
              (searched ? '.' : ': higher levels of generalization, or levels searched with a suppression limit, delete fewer.'),
          ]
        : [],
  };
}
