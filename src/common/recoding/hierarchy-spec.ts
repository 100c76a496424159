import { z } from 'zod';
import { nameRecord } from '../job/job-parts.js';

/** A hierarchy: an ARX-format CSV (path relative to the job), numeric intervals, or code masking. */
export const hierarchySpec = z.union([
  z.string().min(1),
  z.object({ type: z.literal('interval'), widths: z.array(z.number().int().min(2)).min(1) }).strict(),
  z.object({ type: z.literal('masking'), length: z.number().int().min(1).max(64) }).strict(),
]);
export type HierarchySpec = z.infer<typeof hierarchySpec>;

export const levels = nameRecord(z.number().int().min(0), 'an object of column name → level');


/** Hierarchies by column name. */
export const hierarchies = nameRecord(hierarchySpec, 'an object of column name → hierarchy').default({});
