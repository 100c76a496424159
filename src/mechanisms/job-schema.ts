/**
 * The v1 job file: the shared shell (input, roles, output) with the method
 * union built from every mechanism's own schema. The job loader, the wizard and
 * verify parse jobs with this one schema.
 */
import { z } from 'zod';
import { jobShell } from '../common/job/job-parts.js';
import { MECHANISM_DEFINITIONS, METHOD_SCHEMAS } from './definitions.js';

const types = MECHANISM_DEFINITIONS.map((d) => d.metadata.type);
const AVAILABLE = types.join(', ');

export const methodSchema = z
  .discriminatedUnion('type', [...METHOD_SCHEMAS], {
    errorMap: (issue, ctx) => {
      if (issue.code === z.ZodIssueCode.invalid_union_discriminator) {
        const given = (ctx.data as { type?: unknown } | undefined)?.type;
        return { message: `unknown method ${JSON.stringify(given)}; available: ${AVAILABLE}` };
      }
      return { message: ctx.defaultError };
    },
  })
  .superRefine((method, ctx) => {
    const definition = MECHANISM_DEFINITIONS.find((d) => d.metadata.type === method.type);
    // Each refine takes its own method type; the lookup by type guarantees it gets that one.
    definition?.refine?.(method as never, ctx);
  });

export const jobSchema = z.object({ ...jobShell, method: methodSchema }).strict();
