import { z } from 'zod';
import { probability } from '../job/job-parts.js';

/** The (ε,δ) test of reconstruction privacy, shared by both randomized-response mechanisms. */
export const riskTest = {
  epsilon: z.number().gt(0, 'epsilon must be > 0'),
  delta: probability('delta'),
  bound: z.enum(['simplified', 'full']).default('simplified'),
};

/** The reconstruction attack run against the release to measure what it leaks. */
export const attack = z
  .object({
    minGroupSize: z.number().int().min(1).default(20),
    groups: z.number().int().min(1).max(100).default(7),
  })
  .strict()
  .default({});
