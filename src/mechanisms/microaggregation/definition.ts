import { z } from 'zod';
import type { MechanismDefinition } from '../../common/mechanism.js';
import { comparison } from './compare.js';
import { microaggregationView } from './report-view.js';

export const schema = z
  .object({
    type: z.literal('microaggregation'),
    /** The numeric columns aggregated together (one MDAV partition for all of them); names are data, so a list, never object keys. */
    // At least one, checked in refine: the wizard starts from the suggested method, which names none yet.
    columns: z.array(z.string().min(1, 'a column name is not empty')),
    /** The least group size. */
    k: z.number().int('k is a whole number ≥ 2').min(2, 'k must be at least 2'),
    /** What replaces a group's values: its mean (sdcMicro's mdav), or its median. */
    aggregation: z.enum(['mean', 'median']).default('mean'),
    /** Decimal places of a released value, rounded half away from zero. */
    decimals: z.number().int('decimals is a whole number 0 … 10').min(0, 'decimals is a whole number 0 … 10').max(10, 'decimals is a whole number 0 … 10').default(2),
    /** "mdav" (the default): one MDAV over every record; "partitioned-mdav": MDAV within blocks along the first principal direction (partitioned.ts), for large tables. */
    algorithm: z.enum(['mdav', 'partitioned-mdav']).optional(),
    /** Records per block of partitioned MDAV (blocks hold blockSize … 2·blockSize − 1); default 5,000. */
    blockSize: z.number().int('blockSize is a whole number').min(2, 'blockSize must be at least 2').optional(),
  })
  .strict();

export type MicroaggregationSpec = z.output<typeof schema>;

function refine(m: MicroaggregationSpec, ctx: z.RefinementCtx): void {
  if (m.columns.length === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['columns'], message: 'name at least one numeric column to aggregate' });
  if (m.blockSize !== undefined && m.algorithm !== 'partitioned-mdav') ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['blockSize'], message: 'blockSize is a setting of algorithm "partitioned-mdav" only' });
  if (m.blockSize !== undefined && m.blockSize < m.k) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['blockSize'], message: `blockSize ${m.blockSize} is below k = ${m.k}: a block must hold at least one group` });
  const seen = new Set<string>();
  m.columns.forEach((name, i) => {
    if (seen.has(name)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['columns', i], message: `column "${name}" is named twice` });
    seen.add(name);
  });
}

export const microaggregation: MechanismDefinition<typeof schema> = {
  schema,
  suggested: { type: 'microaggregation', columns: [], k: 5, aggregation: 'mean' },
  domainsOf: 'none',
  // Microaggregation takes numbers in every record: the numeric columns without missing values that are not identifiers.
  startingColumns: (columns, isIdentifier) => {
    const aggregated = columns.filter((c) => (c.type === 'integer' || c.type === 'decimal') && c.missing === 0 && !isIdentifier(c.name)).map((c) => c.name);
    return {
      columns: aggregated,
      note: aggregated.length > 0 ? `The aggregated columns are the numeric ones without missing values (method.columns): ${aggregated.join(', ')}. Aggregate every numeric quasi-identifier together; the others are released unchanged.` : 'Choose method.columns: the numeric columns to aggregate (numbers in every record).',
    };
  },
  refine,
  recodes: false,
  compare: comparison,
  reportView: microaggregationView,
  chain: { role: 'identity', namedColumns: (method) => method.columns.map((column, i) => ({ key: `columns[${i}]`, column })), sensitiveModels: () => [] },
  metadata: {
    type: 'microaggregation',
    aliases: ['micro-aggregation', 'mdav', 'microaggregate'],
    title: 'Microaggregation (MDAV)',
    cardTitle: 'Microaggregation (MDAV, groups of at least k)',
    protects:
      'Numeric quasi-identifiers (age, hours, income) are grouped with their k − 1 or more nearest records (MDAV, as sdcMicro\'s microaggregation) and each value is replaced by its group\'s mean, so no record keeps its own combination of those values.',
    costs:
      'Every aggregated value moves towards its group\'s mean; the share of the spread lost (SSE/SST) is in the internal report. Syntactic: the aggregated columns are k-anonymous, the whole release only when every quasi-identifier is aggregated; no differential-privacy guarantee.',
    guarantee: 'Every released combination of the aggregated columns is shared by at least k records; no DP guarantee.',
    sensitiveColumns: 'none',
    differentiallyPrivate: false,
    reportSections: [],
    attackerKnowledge: 'This method assumes the attacker knows a person\'s values of the aggregated columns; each released combination of them is shared by at least k records, and the other columns (among them {sensitive}) are published as collected.',
    sensitiveRelease: 'as-collected',
    fieldNames: { columns: 'the columns to aggregate' },
    recommendation: {
      guards: 'identity',
      reason: 'Replaces the numeric quasi-identifiers by the mean of a group of at least k similar records, so no record keeps its own combination of those values.',
      bestWhen: 'the quasi-identifiers are numbers (age, income, hours worked)',
    },
    reportFigures: { utilityQueries: 'quasi-identifier', releaseIsPlainPerturbation: false, releaseMeetsReconstructionTest: false },
    source:
      'Domingo-Ferrer & Mateo-Sanz, “Practical data-oriented microaggregation for statistical disclosure control” (IEEE TKDE 2002); Domingo-Ferrer & Torra, “Ordinal, continuous and heterogeneous k-anonymity through microaggregation” (DMKD 2005); sdcMicro microaggregation(method = "mdav")',
  },
};
