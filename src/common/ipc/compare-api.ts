/**
 * The Compare step's messages: the candidates the page builds and the
 * comparison the host sends back, as zod schemas (the host validates both).
 */
import { z } from 'zod';
import { COMPARISON_SCHEMA } from '../compare/comparison.js';
import type { Frozen } from '../report/report-model.js';
import { hostFailureSchema } from './api.js';

const gridValue = z.object({ key: z.string().min(1).max(100), value: z.string().max(100) }).strict();

/** One candidate as the page sends it: a job object as the run takes it, its label, the grid values it stands for. */
export const candidateJobSchema = z
  .object({
    label: z.string().min(1).max(200),
    job: z.record(z.string(), z.unknown()),
    grid: z.array(gridValue).max(8),
  })
  .strict();
export type CandidateJobMessage = z.input<typeof candidateJobSchema>;

/** The wizard's cap is the command line's default (one constant). */
export { MAX_CANDIDATES } from '../compare/comparison.js';

const share = z.number().min(0).max(1);
const count = z.number().int().nonnegative();

export const candidateResultSchema = z.object({
  id: z.number().int().positive(),
  label: z.string(),
  job: z.string(),
  grid: z.array(z.object({ key: z.string(), value: z.string() })),
  method: z.object({ type: z.string(), title: z.string() }),
  parameters: z.string(),
  guarantee: z.object({ label: z.string(), statement: z.string(), holds: z.boolean() }),
  risk: z.object({ share, measure: z.string() }),
  utility: z.object({
    relativeError: z.number().nonnegative().optional(),
    estimator: z.string(),
    accuracy: z.object({ target: z.string(), release: z.number().min(0).max(1), input: z.number().min(0).max(1) }).optional(),
    tableDistance: z.number().min(0).max(1).optional(),
  }),
  releasedRecords: count,
  frontier: z.boolean(),
});

/** A candidate that could not run, with its reason (custos.comparison/1's skipped). */
export const skippedCandidateSchema = z.object({
  id: z.number().int().positive(),
  label: z.string(),
  job: z.string(),
  grid: z.array(z.object({ key: z.string(), value: z.string() })),
  method: z.object({ type: z.string(), title: z.string() }).optional(),
  stage: z.enum(['check', 'run']),
  reason: z.string(),
  key: z.string().optional(),
});

export const comparisonSchema = z.object({
  schema: z.literal(COMPARISON_SCHEMA),
  confidential: z.string(),
  createdAt: z.string(),
  software: z.object({ name: z.literal('custos'), version: z.string(), node: z.string(), platform: z.string() }),
  testRandomness: z.boolean(),
  input: z.object({ path: z.string(), sha256: z.string(), rows: count }),
  pool: z.object({ description: z.string(), columns: z.array(z.string()), queries: count, requested: count, attempts: count, minAnswer: z.number().nonnegative() }),
  candidates: z.array(candidateResultSchema),
  skipped: z.array(skippedCandidateSchema),
  notes: z.array(z.string()),
  seconds: z.number().nonnegative(),
});
export type ComparisonMessage = Frozen<z.output<typeof comparisonSchema>>;

export const compareStatusSchema = z.object({
  id: z.string(),
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
  /** The candidate being assessed, in words. */
  label: z.string().optional(),
  fraction: z.number().min(0).max(1),
  comparison: comparisonSchema.optional(),
  failure: hostFailureSchema.optional(),
});
export type CompareStatus = Frozen<z.output<typeof compareStatusSchema>>;
