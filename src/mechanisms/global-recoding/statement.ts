/**
 * Every sentence optimal global recoding writes about a release, each once. `published` is a
 * function of the job's parameters and the released columns' roles (verify writes it again from
 * report.json); `internal` adds the chosen transformation's figures and the suppressed records for
 * the internal report only.
 */
import type { Report } from '../../common/report/report-model.js';
import type { InternalStatement, PublicStatement, Statement } from '../../common/report/statement.js';
import { modelText, samplingFraction, type GlobalRecodingSpec } from './definition.js';
import { levelBoundsText } from './level-bounds.js';

/** The job's parameters the sentences name. */
export type StatedParameters = Pick<GlobalRecodingSpec, 'models' | 'suppressionLimit' | 'measure' | 'localSuppression' | 'gsFactor' | 'attributeWeights' | 'levels'>;

/** What the release shows: the sensitive column the models name (ℓ-diversity, t-closeness). */
export interface PublishedFigures {
  readonly sensitive: string | undefined;
  /** The lattice was searched by the heuristic (derived.searchStrategy): the choice need not be the optimum. */
  readonly heuristic?: boolean;
}

/** Figures of the run: the search's choice and what record and local suppression did. */
export interface InternalFigures {
  /** Undefined when no transformation meets the models (an assessment; a run refuses). */
  readonly optimum: { readonly measure: number } | undefined;
  /** Each quasi-identifier with its chosen level. */
  readonly levels: readonly { readonly name: string; readonly level: number }[];
  /** The transformations searched: the lattice's, or those within the job's levels. */
  readonly nodes: number;
  /** The job's levels in words, when it bounds any. */
  readonly bounds: string | undefined;
  /** What the heuristic search did and its distance to the optimum, when it chose. */
  readonly heuristic: string | undefined;
  readonly satisfying: number;
  readonly satisfyingExact: boolean;
  readonly suppressedRows: number;
  readonly releasedRows: number;
  readonly classes: number;
  readonly minClassSize: number;
  readonly loss: number;
  readonly local: { readonly cells: number; readonly records: number; readonly perColumn: readonly { readonly name: string; readonly cells: number }[]; readonly recordsBelowK: number } | undefined;
  /** Why nothing can be released, when no transformation meets the models. */
  readonly none: string;
}

/**
 * What a journalist threshold gives, and what the population does not: the threshold holds on the
 * bound 1/|class|; the sampling fraction's π/|class| is an estimate that a sample unique can beat.
 */
export const JOURNALIST_STATEMENT =
  'A journalist threshold is met on the journalist risk\'s upper bound: a released class of f records stands for at least f people of the population, so the risk of a person in it is at most 1/f, the prosecutor\'s risk, and that bound meets the threshold. ' +
  'The population given (a size or a sampling fraction π) is used for estimates only: π/f is the risk if the class stood for its expected f/π people under uniform sampling, which is not a bound (a record unique in the data may be unique in the population); the estimates are reported as such and never enforced. ';

/** The models in words (also the report's parameters.models and anonymity.model). */
export function modelsTextOf(spec: Pick<GlobalRecodingSpec, 'models'>, sensitive: string | undefined): string {
  return spec.models.length > 0 ? spec.models.map((m) => modelText(m, sensitive)).join(' and ') : 'no model (local suppression alone)';
}

/** The measure as the sentences name it: with the Loss's factor and weights when the job sets them (ARX's defaults otherwise, unsaid). */
export function measureWordsOf(spec: Pick<GlobalRecodingSpec, 'measure' | 'gsFactor' | 'attributeWeights'>): string {
  const settings = [
    ...(spec.gsFactor !== undefined ? [`generalization/suppression factor ${spec.gsFactor}`] : []),
    ...(spec.attributeWeights !== undefined ? [`attribute weights ${spec.attributeWeights.map((w) => `${w.column} ${w.weight}`).join(', ') || 'none named'} (others 0.5, divided by the largest)`] : []),
  ];
  return settings.length > 0 ? `${spec.measure} (${settings.join('; ')})` : spec.measure;
}

/** The suppression limit as the sentences state it. */
export const limitPercentOf = (spec: Pick<GlobalRecodingSpec, 'suppressionLimit'>): string => `${Number((spec.suppressionLimit * 100).toFixed(4))} %`;

export function publishedStatement(spec: StatedParameters, f: PublishedFigures): PublicStatement {
  const modelsText = modelsTextOf(spec, f.sensitive);
  const limitPercent = limitPercentOf(spec);
  const ls = spec.localSuppression;
  // Whether a journalist model names a population; the row count only sizes π, which the words do not state.
  const journalist = samplingFraction(spec.models, 1) !== undefined;
  const bounds = levelBoundsText(spec.levels);
  return {
    guarantee: {
      name: `${modelsText}${ls ? `, then local suppression to ${ls.k}-anonymity with wildcards` : ''}, at most ${limitPercent} suppressed (syntactic, no DP guarantee)`,
      // Local suppression alone: no class claim, only the cells' (stated first, as the guarantee it is).
      statement: spec.models.length > 0 ? syntacticStatement(modelsText, limitPercent, journalist) + likenessStatement(spec.models) + presenceStatement(spec.models) + (ls ? ` ${localStatement(ls.k)}` : '') : `${localStatement(ls!.k)} ${syntacticStatement(undefined, limitPercent)}`,
      formula: [...spec.models.map(modelFormula), ...(ls ? [`every released record compatible with ≥ ${ls.k} released records ("*" matches any value)`] : [])].join('; '),
      source: `Sweeney 2002 (k-anonymity); Machanavajjhala, Kifer, Gehrke, Venkitasubramaniam 2007 (ℓ-diversity); Li, Li, Venkatasubramanian 2007 (t-closeness); ${likenessSources(spec.models)}the search, the suppression limit and the measures as in ARX 3.9 (Prasser, Kohlmayer et al.)`,
    },
    summary: [
      `Every quasi-identifier was generalized at one level of its hierarchy for the whole table, the combination chosen as the least ${measureWordsOf(spec)} that meets ${modelsText}${bounds ? ` among the levels the job allowed (${bounds})` : ''}${f.heuristic ? ' that a heuristic search with a budget found (another combination may lose less)' : ''}; records of classes that did not meet it were deleted (at most ${limitPercent}).`,
      ...(ls ? [`Then cells of the quasi-identifiers were suppressed ("*") until every record is compatible with at least ${ls.k} records, "*" matching any value (local suppression as sdcMicro's kAnon).`] : []),
      'The models are syntactic: no differential-privacy guarantee.',
    ],
    warnings: [],
  };
}

export function statement(spec: StatedParameters, f: PublishedFigures, c: InternalFigures): Statement {
  const modelsText = modelsTextOf(spec, f.sensitive);
  const limitPercent = limitPercentOf(spec);
  const ls = spec.localSuppression;
  const local = c.local;
  const internal: InternalStatement = {
    summary: c.optimum
      ? [
          spec.models.length === 0
            ? 'No privacy model: every quasi-identifier stays as collected (level 0), and local suppression alone protects the release.'
            : `Every quasi-identifier was generalized at the level of the optimal transformation (${c.levels.map((l) => `${l.name} ${l.level}`).join(', ')}), chosen by ${measureWordsOf(spec)} among the ${c.nodes.toLocaleString('en-US')} transformations of the lattice${c.bounds ? ` within the job's levels (${c.bounds})` : ''}; ${c.satisfyingExact ? c.satisfying.toLocaleString('en-US') : `at least ${c.satisfying.toLocaleString('en-US')}`} of them meet ${modelsText} with at most ${limitPercent} suppressed.`,
          ...(c.heuristic ? [c.heuristic] : []),
          `${c.suppressedRows.toLocaleString('en-US')} record(s) in classes that failed the models were deleted; ${c.releasedRows.toLocaleString('en-US')} remain in ${c.classes.toLocaleString('en-US')} classes (the smallest has ${c.minClassSize}${local ? ', before local suppression' : ''}); ${spec.measure} ${Number(c.optimum.measure.toPrecision(10))}, generalization loss ${c.loss.toFixed(3)}.`,
          ...(local
            ? [
                `Local suppression to ${ls!.k}-anonymity (sdcMicro's kAnon, "*" a wildcard) suppressed ${local.cells.toLocaleString('en-US')} cell(s) in ${local.records.toLocaleString('en-US')} record(s) (${local.perColumn.map((p) => `${p.name} ${p.cells}`).join(', ')}); record suppression would have deleted ${local.recordsBelowK.toLocaleString('en-US')} record(s) instead (those in classes below ${ls!.k} at these levels).`,
              ]
            : []),
          'The models are syntactic: no differential-privacy guarantee.',
        ]
      : [`Nothing can be released: ${c.none}. Even the most generalized transformation would delete ${c.suppressedRows.toLocaleString('en-US')} record(s).`],
    warnings: c.suppressedRows > 0 ? [`${c.suppressedRows.toLocaleString('en-US')} record(s) were suppressed with their class.`] : [],
  };
  return { published: publishedStatement(spec, f), internal };
}

/** The published sentences written again from report.json (verify): the sensitive column from the released columns' roles. */
export function publishedStatementOf(report: Report): PublicStatement {
  return publishedStatement(report.job['method'] as StatedParameters, { sensitive: report.input.columns.find((c) => c.role === 'sensitive')?.name, heuristic: report.method.derived['searchStrategy'] === 'heuristic' });
}

/** The guarantee in words: what the models give, what they do not, and what they protect against. */
export function syntacticStatement(models: string | undefined, limitPercent: string, journalist = false): string {
  return (
    (models === undefined ? '' : `Every released class of records that share their generalized quasi-identifiers meets ${models}; the records of classes that did not were deleted (at most ${limitPercent} of the records). `) +
    (journalist ? JOURNALIST_STATEMENT : '') +
    'These models are syntactic: they constrain the released table itself, not the process that produced it, so there is no differential-privacy guarantee, and the generalization was chosen by looking at this data. ' +
    'k-anonymity and the risk thresholds protect against re-identification by someone who knows a person\'s quasi-identifiers (the person is hidden among the class); ℓ-diversity and t-closeness against learning the sensitive value from the class. ' +
    'They do not protect against an adversary with other background knowledge, against linking several releases of the same data, or against learning whether a person is in the data. For a differential-privacy guarantee use safe k-anonymity with its private search.'
  );
}

/**
 * What β-likeness and δ-disclosure privacy give, said only when the job states one (the sentences of
 * other jobs stay as they were). Both compare a class with the input's distribution P of the sensitive
 * value over every input record, suppressed ones included; the release holds P only when nothing was
 * suppressed. The boundary: a gain exactly β meets β-likeness; a ratio whose logarithm is exactly
 * −ln P(v) or ±δ cannot occur for a rational δ (decided exactly, never by a rounded double).
 */
export function likenessStatement(models: StatedParameters['models']): string {
  const beta = models.filter((m) => m.type === 'beta-likeness');
  const delta = models.filter((m) => m.type === 'delta-disclosure');
  if (beta.length === 0 && delta.length === 0) return '';
  const parts: string[] = [];
  for (const m of beta) {
    parts.push(
      m.variant === 'enhanced'
        ? `${m.variant} ${m.beta}-likeness: in every released class, a sensitive value v that is more frequent there than in the input is at most (1 + min(${m.beta}, −ln P(v))) times as frequent as in the input, P(v) being its share of all input records; values less frequent in the class are not bounded from below`
        : `basic ${m.beta}-likeness: in every released class, a sensitive value v that is more frequent there than in the input is at most ${1 + m.beta} times as frequent as in the input (P(v), its share of all input records); values less frequent in the class are not bounded from below`,
    );
  }
  for (const m of delta) {
    parts.push(`${m.delta}-disclosure privacy: in every released class, every sensitive value the class holds has a share strictly between e^−${m.delta} and e^${m.delta} times its share P(v) of all input records; a value the class does not hold is not bounded (natural logarithm; ARX's δ, on log₂, is this δ / ln 2)`);
  }
  return ` ${parts.join('. ')}. These bound what the class tells about a person's sensitive value relative to the whole input, not what the input's distribution P itself tells.`;
}

/**
 * What δ-presence gives, said only when the job states it: ARX's DPresence, with the input as the
 * population and the research subset's records alone released. Every number in it is the job's.
 */
export function presenceStatement(models: StatedParameters['models']): string {
  const m = models.find((model) => model.type === 'delta-presence');
  if (!m || m.type !== 'delta-presence') return '';
  return (
    ` (${m.deltaMin}, ${m.deltaMax})-presence: the input is taken as the population, and only the records its column ${m.subset} marks as the research subset are released (the other records are not; subset records of classes that failed the models were deleted, the suppression limit being a share of the subset's records). ` +
    `Of the input's records in each released class (all records with that class's generalized quasi-identifiers), at least ${m.deltaMin} and at most ${m.deltaMax} are in the research subset, so someone who knows a person's quasi-identifiers and that the person is in the input, and nothing more of how the subset was chosen, can put the chance that the person is among the released records no lower than ${m.deltaMin} and no higher than ${m.deltaMax}. ` +
    (m.deltaMin > 0 ? 'Every class of the input at these levels holds a subset record; a class whose subset records were all deleted shows none in the release. ' : '') +
    'The other models are met by the subset\'s records in each class. This holds against that population only: a person outside the input is not covered.'
  );
}

function likenessSources(models: StatedParameters['models']): string {
  return (models.some((m) => m.type === 'delta-presence') ? 'Nergiz, Atzori, Clifton 2007 (δ-presence); ' : '') + (models.some((m) => m.type === 'beta-likeness') ? 'Cao, Karras 2012 (β-likeness); ' : '') + (models.some((m) => m.type === 'delta-disclosure') ? 'Brickell, Shmatikov 2008 (δ-disclosure privacy); ' : '');
}

/** What local suppression's wildcard k-anonymity gives, and the weaker point of it. */
function localStatement(k: number): string {
  return (
    `Cells of the quasi-identifiers were suppressed (released as "*") until every released record is compatible with at least ${k} released records, "*" matching any value (sdcMicro's kAnon criterion). ` +
    'This is weaker than k-anonymity of identical records: compatibility is not transitive, so someone who knows all of a person\'s quasi-identifiers may find fewer than k records compatible with those values.'
  );
}

function modelFormula(model: GlobalRecodingSpec['models'][number]): string {
  switch (model.type) {
    case 'k-anonymity':
      return '|class| ≥ k';
    case 'l-diversity':
      return model.variant === 'distinct' ? 'distinct sensitive values ≥ ℓ' : model.variant === 'entropy' ? '−Σ p·log₂ p ≥ log₂ ℓ' : 'r₁ < c·(r_ℓ + … + r_m)';
    case 't-closeness':
      return model.distance === 'equal' ? '½ Σ_v |P_class(v) − P(v)| ≤ t' : model.distance === 'ordered' ? 'Σ_i |Σ_{j≤i} (P_class − P)(v_j)| / (m − 1) ≤ t' : 'hierarchical EMD ≤ t';
    case 'beta-likeness':
      return model.variant === 'enhanced' ? 'for every value v with P_class(v) > P(v): (P_class(v) − P(v)) / P(v) ≤ min(β, −ln P(v))' : 'for every value v with P_class(v) > P(v): (P_class(v) − P(v)) / P(v) ≤ β';
    case 'delta-disclosure':
      return 'for every value v the class holds: |ln(P_class(v) / P(v))| < δ';
    case 'maximum-risk':
      return model.attacker === 'journalist' ? 'journalist risk ≤ 1 / |class| ≤ r (a class\'s population count ≥ |class|)' : '1 / |class| ≤ r';
    case 'average-risk':
      return model.attacker === 'journalist' ? 'mean journalist risk ≤ classes / records ≤ r' : 'classes / records ≤ r';
    case 'delta-presence':
      return 'δmin ≤ |class ∩ subset| / |class| ≤ δmax, |class| over every input record';
  }
}
