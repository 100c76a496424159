/**
 * Every sentence microaggregation writes about a release, each once. `published` is a function of
 * the job's parameters and the released columns' roles (verify writes it again from report.json);
 * `internal` adds the information loss and the group counts for the internal report only.
 */
import type { Report } from '../../common/report/report-model.js';
import type { InternalStatement, PublicStatement, Statement } from '../../common/report/statement.js';
import type { MicroaggregationSpec } from './definition.js';
import { algorithmOf } from './partitioned.js';

/** The job's parameters the sentences name. */
export type StatedParameters = Pick<MicroaggregationSpec, 'columns' | 'k' | 'aggregation' | 'decimals' | 'algorithm' | 'blockSize'>;

/** What the release shows: its quasi-identifiers. */
export interface PublishedFigures {
  readonly quasi: readonly string[];
}

/** Figures of the run: the loss compares the release with the confidential values. */
export interface InternalFigures {
  readonly loss: { readonly ratio: number | undefined; readonly il1s: number };
  readonly groups: number;
  readonly aggregatedClasses: number;
  readonly smallestAggregatedClass: number;
  /** The smallest class over every quasi-identifier as released. */
  readonly smallestQuasiClass: number;
}

export const microaggregationSource =
  'Domingo-Ferrer & Mateo-Sanz, "Practical data-oriented microaggregation for statistical disclosure control", IEEE TKDE 14(1), 2002 (MDAV, SSE/SST); Domingo-Ferrer & Torra, "Ordinal, continuous and heterogeneous k-anonymity through microaggregation", DMKD 11, 2005 (fixed-size MDAV); sdcMicro microaggregation(method = "mdav"), src/Mdav.h';

/** How the aggregated values were rounded (also the report's derived `rounding`). */
export function roundingText(decimals: number): string {
  return `rounded half away from zero to ${decimals} decimal place${decimals === 1 ? '' : 's'}`;
}

/** What SSE/SST measures (also the report's derived `informationLoss`). */
export const LOSS_TEXT =
  'SSE/SST: the squared distance of every aggregated value from the value it replaced, summed over the records and the aggregated columns in z-scores (each column divided by its standard deviation), as a share of the total sum of squares of those z-scores about their means; 0 keeps every value, 1 loses as much as replacing every value by its column mean';

/** How the groups were formed, in the summary's words. */
function methodText(spec: StatedParameters): string {
  const mdavText = `groups of ${spec.k} records formed around the records farthest from the centre, the last of ${spec.k} to ${2 * spec.k - 1}`;
  const algorithm = algorithmOf(spec);
  if (algorithm.kind === 'mdav') return `MDAV: ${mdavText}`;
  const b = algorithm.blockSize.toLocaleString('en-US');
  return `partitioned MDAV: the records ordered along the first principal direction of their z-scores and cut into blocks of ${b} to ${(2 * algorithm.blockSize - 1).toLocaleString('en-US')}, then MDAV within each block (${mdavText} of its block); no group crosses a block, so the groups are coarser than one MDAV over all records would form, and each still has ${spec.k} to ${2 * spec.k - 1} records`;
}

/** The aggregated columns as the sentences list them. */
export const columnsText = (spec: StatedParameters): string => spec.columns.map((c) => `"${c}"`).join(', ');

export function publishedStatement(spec: StatedParameters, f: PublishedFigures): PublicStatement {
  const columns = columnsText(spec);
  const allQuasi = f.quasi.every((q) => spec.columns.includes(q));
  return {
    guarantee: {
      name: `${spec.k}-anonymity of ${columns} by microaggregation (syntactic, no DP guarantee)`,
      statement: syntacticStatement(spec.k, columns, allQuasi, algorithmOf(spec).kind === 'partitioned-mdav'),
      formula: `every ${algorithmOf(spec).kind === 'mdav' ? 'MDAV' : 'partitioned-MDAV'} group has k … 2k − 1 records and one released value per column; |{records sharing the released ${columns}}| ≥ k`,
      source: microaggregationSource,
    },
    summary: [
      `The records were put into groups of at least ${spec.k} (${methodText(spec)}), by distance on the z-scores of ${columns}; every value of those columns was replaced by its group's ${spec.aggregation === 'mean' ? 'mean' : 'median'}, ${roundingText(spec.decimals)}. Every other column is released as it is, in random record order.`,
      `Every released combination of ${columns} is shared by at least ${spec.k} records${allQuasi ? ', and every quasi-identifier is aggregated' : '; other quasi-identifiers are released unchanged, so the release as a whole is not k-anonymous'}. The method is syntactic: no differential-privacy guarantee.`,
    ],
    warnings: allQuasi ? [] : [`Quasi-identifiers other than ${columns} are released unchanged: the release is k-anonymous on the aggregated columns only.`],
  };
}

export function statement(spec: StatedParameters, f: PublishedFigures, c: InternalFigures): Statement {
  const published = publishedStatement(spec, f);
  const columns = columnsText(spec);
  const notAggregated = f.quasi.filter((q) => !spec.columns.includes(q));
  const internal: InternalStatement = {
    summary: [
      ...published.summary,
      `${c.loss.ratio === undefined ? 'The information loss cannot be computed: every aggregated column is constant, yet rounding moved its values' : `Information lost: ${Number(c.loss.ratio.toPrecision(4))}, where 0 keeps every value and 1 loses as much as replacing every value by its column's mean`}; sdcMicro's IL1s, the mean distance of a value from the one it replaced scaled by its column's spread, is ${Number(c.loss.il1s.toPrecision(4))} (both defined in the report's appendix); ${c.groups.toLocaleString('en-US')} groups, ${c.aggregatedClasses.toLocaleString('en-US')} released combinations of the aggregated columns (the smallest shared by ${c.smallestAggregatedClass} records).`,
    ],
    warnings: notAggregated.length === 0 ? [] : [`Quasi-identifiers not aggregated (${notAggregated.join(', ')}) are released unchanged: the release is k-anonymous on ${columns} only; its smallest class over every quasi-identifier has ${c.smallestQuasiClass} record(s).`],
  };
  return { published, internal };
}

/** The published sentences written again from report.json (verify). */
export function publishedStatementOf(report: Report): PublicStatement {
  return publishedStatement(report.job['method'] as StatedParameters, { quasi: report.input.columns.filter((c) => c.role === 'quasi').map((c) => c.name) });
}

/** The guarantee in words: what the partition gives, on which columns, and what it does not. */
export function syntacticStatement(k: number, columns: string, allQuasi: boolean, partitioned = false): string {
  return (
    `Every released combination of ${columns} is shared by at least ${k} records: ${partitioned ? 'partitioned MDAV (MDAV within blocks of records)' : 'MDAV'} put every record in a group of ${k} to ${2 * k - 1} records, and the group's records all carry the group's aggregated values. ` +
    (allQuasi
      ? 'Every quasi-identifier is among the aggregated columns, so the release is k-anonymous on its quasi-identifiers. '
      : 'Other quasi-identifiers are released as they are: combined with them, a record may be in a smaller class (the re-identification risk figures count those classes), so the release is k-anonymous on the aggregated columns only. ') +
    "This is a syntactic property of the released table: there is no differential-privacy guarantee, the groups were chosen by looking at this data, and an adversary who knows a person's exact values can still narrow the person down to a group and learn the group's values."
  );
}
