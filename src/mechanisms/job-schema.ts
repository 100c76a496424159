/**
 * The v1 job file: the shared shell (input, roles, output) with the method
 * union built from every mechanism's own schema. The job loader, the wizard and
 * verify parse jobs with this one schema.
 */
import { z } from 'zod';
import { jobShell } from '../common/job/job-parts.js';
import { unknownMethodMessage } from '../common/method-names.js';
import { MECHANISM_DEFINITIONS, METHOD_SCHEMAS } from './definitions.js';

const NAMES = MECHANISM_DEFINITIONS.map((d) => d.metadata);

export const methodSchema = z
  .discriminatedUnion('type', [...METHOD_SCHEMAS], {
    errorMap: (issue, ctx) => {
      if (issue.code === z.ZodIssueCode.invalid_union_discriminator) {
        const given = (ctx.data as { type?: unknown } | undefined)?.type;
        return { message: unknownMethodMessage(given, NAMES) };
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
