/**
 * Every sentence partitioned recoding writes about a release, each once. `published` is a function
 * of the job's parameters and what report.json shows (the searched levels and lattice size; verify
 * writes it again from there); `internal` adds the counts of the run for the internal report only.
 */
import type { PrivacyModel } from '../../common/recoding/partitioned.js';
import { MEASURE_TITLES } from '../../common/recoding/search/measures.js';
import type { Report } from '../../common/report/report-model.js';
import type { InternalStatement, PublicStatement, Statement } from '../../common/report/statement.js';
import type { PartitionedRecodingSpec } from './definition.js';

/** The job's parameters the sentences name. */
export type StatedParameters = Pick<PartitionedRecodingSpec, 'parts' | 'measure' | 'suppressionLimit'> & { readonly model: PrivacyModel };

/** What the release shows: the search's levels and the lattice it searched, when the levels were searched. */
export interface PublishedFigures {
  readonly search: { readonly levels: Readonly<Record<string, number>>; readonly nodes: number } | undefined;
}

/** Figures of the confidential data and of the run. */
export interface InternalFigures {
  readonly records: number;
  readonly released: number;
  readonly classes: number;
  readonly suppressed: number;
  /** Each part's worst class (smallest, fewest distinct values, largest distance). */
  readonly worst: readonly number[];
  readonly loss: number;
  /** The largest part's share of the records, for Theorem 2 (with more than one part). */
  readonly share: number;
  readonly search: { readonly satisfying: number; readonly satisfyingExact: boolean; readonly evaluated: number } | undefined;
}

export function modelText(model: PrivacyModel): string {
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

const limitText = (spec: StatedParameters): string => `${Number((spec.suppressionLimit * 100).toFixed(4))} %`;
const levelsText = (levels: Readonly<Record<string, number>>): string => Object.entries(levels).map(([c, l]) => `${c} ${l}`).join(', ');
const how = (spec: StatedParameters): string => (spec.parts > 1 ? `split at random into ${spec.parts} parts; each part was generalized with the same recoding` : 'generalized with one recoding (no split)');

export function publishedStatement(spec: StatedParameters, f: PublishedFigures): PublicStatement {
  const { model } = spec;
  return {
    guarantee: {
      name: `${modelText(model)} in every part`,
      statement:
        (spec.parts > 1 ? `The records were split at random into ${spec.parts} disjoint parts whose sizes differ by at most one, and every part was generalized with the same recoding; ` : 'The records were kept as one part (no split) and generalized with one recoding; ') +
        `every class of records sharing their generalized quasi-identifiers that did not meet ${modelText(model)} was deleted, so every released class of every part meets it` +
        (spec.parts > 1 ? unionSentence(model) : '.') +
        (f.search
          ? ` The levels were chosen by a search over the ${f.search.nodes.toLocaleString('en-US')} recodings of the lattice as the least ${MEASURE_TITLES[spec.measure]} whose failing classes hold at most ${limitText(spec)} of the records, looking at this data: the model is syntactic and no differential-privacy guarantee follows.`
          : ''),
      formula:
        model.type === 'k-anonymity'
          ? '|class| ≥ k for every released class of every part'
          : model.type === 'l-diversity'
            ? 'distinct sensitive values ≥ ℓ in every released class'
            : '½ Σ_v |P_class(v) − P_part(v)| ≤ t in every released class',
      source: 'Clifton et al., "A Partitioned Recoding Scheme for Privacy Preserving Data Publishing", PSD 2020, footnote 1 and Theorem 2; the random split depends only on n and P',
    },
    summary: [
      `The records were ${how(spec)} and every class that did not meet ${modelText(model)} was deleted.`,
      ...(f.search ? [`The recoding (${levelsText(f.search.levels)}) was chosen by a search for the least ${spec.measure} with at most ${limitText(spec)} of the records deleted.`] : []),
    ],
    warnings: [],
  };
}

export function statement(spec: StatedParameters, f: PublishedFigures, c: InternalFigures): Statement {
  const { model } = spec;
  const worstText = model.type === 'k-anonymity' ? 'smallest class' : model.type === 'l-diversity' ? 'fewest distinct values' : 'largest distance';
  const internal: InternalStatement = {
    summary: [
      ...(f.search && c.search
        ? [`Levels chosen by the search (${levelsText(f.search.levels)}): ${c.search.satisfyingExact ? '' : 'at least '}${c.search.satisfying.toLocaleString('en-US')} of the ${f.search.nodes.toLocaleString('en-US')} recodings meet the model in every part within the limit; ${c.search.evaluated.toLocaleString('en-US')} evaluated.`]
        : []),
      `The ${c.records.toLocaleString('en-US')} records were ${how(spec)} and every class that did not meet ${modelText(model)} was deleted.`,
      `${c.released.toLocaleString('en-US')} records remain in ${c.classes.toLocaleString('en-US')} classes (${worstText} per part: ${c.worst.map((w) => Number(w.toFixed(4))).join(', ')}); generalization loss ${c.loss.toFixed(3)}.`,
      ...(spec.parts > 1 ? [`A differentially private method run later on one part alone (at most ${(c.share * 100).toFixed(1)}% of the records) is also ε′-differentially private; the report lists ε′ for several ε, and the smaller of the two (Theorem 2 of the paper, in the report's appendix).`] : []),
    ],
    warnings:
      c.suppressed > 0
        ? [
            `${c.suppressed.toLocaleString('en-US')} of ${c.records.toLocaleString('en-US')} records (${((100 * c.suppressed) / c.records).toFixed(1)} %) were deleted with their class` +
              (f.search ? '.' : ': higher levels of generalization, or levels searched with a suppression limit, delete fewer.'),
          ]
        : [],
  };
  return { published: publishedStatement(spec, f), internal };
}

/** The published sentences written again from report.json (verify): the searched levels and the lattice's size as the report gives them. */
export function publishedStatementOf(report: Report): PublicStatement {
  const spec = report.job['method'] as StatedParameters & { levels: unknown };
  const nodes = report.method.derived['latticeNodes'];
  const search = spec.levels === 'search' && report.method.levels && typeof nodes === 'number' ? { levels: report.method.levels, nodes } : undefined;
  return publishedStatement(spec, { search });
}
