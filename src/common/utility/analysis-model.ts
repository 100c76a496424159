import { z } from 'zod';

/**
 * The analysis-based utility of a release (analysis.ts): the job's `utility` key, which chooses what
 * is measured, and the internal report's `utility.analysis`, which holds the figures. Every figure is
 * measured against the confidential input: internal only (the external variant of the report leaves
 * it out, and no file of the release folder carries it).
 */

/** At most this many contingency tables: the default pairs are cut to it, and a job may not ask for more. */
export const MAX_PAIRS = 12;

const column = z.string().min(1, 'name a column');

export const utilitySettings = z
  .object({
    /** The column a classifier learns to predict from the other released columns (none: no classifier). */
    target: column.optional(),
    /** The column pairs whose contingency tables are compared; default: each quasi-identifier with the sensitive column (or the target). */
    pairs: z
      .array(z.tuple([column, column]).refine(([a, b]) => a !== b, 'a pair names two different columns'))
      .max(MAX_PAIRS, `at most ${MAX_PAIRS} pairs`)
      .optional(),
  })
  .strict();
export type UtilitySettings = z.output<typeof utilitySettings>;

const num = z.number().finite();
const share = num.min(0).max(1);
const count = z.number().int().nonnegative();
const obj = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

export const classifierReport = z.union([
  obj({
    target: z.string(),
    learner: z.string(),
    protocol: z.string(),
    features: z.array(z.string()),
    leftOut: z.array(obj({ column: z.string(), reason: z.string() })),
    /** The target's categories (values, or bins of an orderable target). */
    classes: z.array(z.string()),
    /** Input records scored: those whose target is not missing. */
    records: count,
    /** The model trained on the input, scored on the input's records. */
    inputAccuracy: share,
    /** The model trained on the release, scored on the same records. */
    releaseAccuracy: share,
    /** The input model's accuracy by 5-fold cross-validation: each record scored by a model that did not see it. */
    inputCrossValidated: share,
    /** Always guessing the input's most frequent class. */
    majority: share,
  }),
  obj({ target: z.string(), skipped: z.string() }),
]);

export const contingencyReport = z.union([
  obj({
    columns: z.tuple([z.string(), z.string()]),
    /** Total variation distance between the input's table and the release's, each as shares of its records. */
    totalVariation: share,
    hellinger: share,
    /** Total variation of each column's marginal. */
    marginals: z.tuple([share, share]),
    rows: z.array(z.string()),
    cols: z.array(z.string()),
    /** The cells row by row, when the table is small enough to show (at most MAX_SHOWN_CELLS). */
    cells: obj({ input: z.array(num), release: z.array(num) }).optional(),
  }),
  obj({ columns: z.tuple([z.string(), z.string()]), skipped: z.string() }),
]);

export const analysisReport = z.union([
  obj({
    /** How the release is read in the input's values (src/common/compare/released-records.ts). */
    reading: z.string(),
    classifier: classifierReport.optional(),
    tables: z.array(contingencyReport),
  }),
  obj({ notMeasured: z.string() }),
]);

export type ClassifierReport = z.output<typeof classifierReport>;
export type ContingencyReport = z.output<typeof contingencyReport>;
export type AnalysisReport = z.output<typeof analysisReport>;
