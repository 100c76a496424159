import { z } from 'zod';
import { nameRecord, pathText } from '../job/job-parts.js';

/** A hierarchy: an ARX-format CSV (path relative to the job), numeric intervals or rounding, code masking, or dates. */
export const hierarchySpec = z.union([
  pathText.min(1),
  z
    .object({
      type: z.literal('interval'),
      widths: z
        .array(z.number().int().min(2, 'an interval width is a whole number ≥ 2'))
        .superRefine((widths, ctx) => {
          // Coarser levels must nest in finer ones, or a value would change band when generalized further.
          widths.forEach((w, i) => {
            if (i > 0 && w % widths[i - 1]! !== 0) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i], message: `interval width ${w} must be a multiple of ${widths[i - 1]} so the levels nest` });
          });
        }),
      /** Top coding: values ≥ top read "top+" from level 1 on (the rest as collected at level 1). */
      top: z.number().int('the top code is a whole number').optional(),
      /** Bottom coding: values < bottom read "<bottom" from level 1 on. */
      bottom: z.number().int('the bottom code is a whole number').optional(),
    })
    .strict()
    .superRefine((spec, ctx) => {
      if (spec.widths.length === 0 && spec.top === undefined && spec.bottom === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['widths'], message: 'give at least one interval width, or a top or bottom code' });
      if (spec.top !== undefined && spec.bottom !== undefined && spec.bottom >= spec.top) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['bottom'], message: `the bottom code ${spec.bottom} must lie below the top code ${spec.top}` });
    }),
  /** Rounding down to multiples: level i releases the multiple of bases[i − 1] at or below the value (37 → 35 at base 5). */
  z
    .object({
      type: z.literal('rounding'),
      bases: z
        .array(z.number().int('a rounding base is a whole number ≥ 1').min(1, 'a rounding base is a whole number ≥ 1'))
        .min(1, 'give at least one rounding base')
        .superRefine((bases, ctx) => {
          // Coarser levels must nest in finer ones, as interval widths.
          bases.forEach((b, i) => {
            if (i > 0 && (b <= bases[i - 1]! || b % bases[i - 1]! !== 0)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i], message: `rounding base ${b} must be a larger multiple of ${bases[i - 1]} so the levels nest` });
          });
        }),
    })
    .strict(),
  z.object({ type: z.literal('masking'), length: z.number().int().min(1).max(64) }).strict(),
  /** ISO dates: year-month, year, decade, "*". */
  z.object({ type: z.literal('date') }).strict(),
]);
export type HierarchySpec = z.infer<typeof hierarchySpec>;

export const levels = nameRecord(z.number().int().min(0), 'an object of column name → level');

/** Hierarchies by column name. */
export const hierarchies = nameRecord(hierarchySpec, 'an object of column name → hierarchy').default({});

/** Levels of the date hierarchy above the data: year-month, year, decade, "*". */
export const DATE_LEVELS = 4;

/** The highest level of a hierarchy given in the job itself (intervals, rounding, masking, dates); undefined for a file, whose depth is in the file. */
export function maxLevelOf(spec: HierarchySpec): number | undefined {
  if (typeof spec === 'string') return undefined;
  if (spec.type === 'date') return DATE_LEVELS;
  if (spec.type === 'rounding') return spec.bases.length + 1;
  return spec.type === 'interval' ? spec.widths.length + 1 + (spec.top !== undefined || spec.bottom !== undefined ? 1 : 0) : spec.length;
}

/** Fixed levels beyond the depth of a hierarchy the job defines: an issue on levels.<column>. */
export function checkLevels(hierarchies: Readonly<Record<string, HierarchySpec>>, levels: Readonly<Record<string, number>>, ctx: z.RefinementCtx): void {
  for (const [column, level] of Object.entries(levels)) {
    const spec = Object.hasOwn(hierarchies, column) ? hierarchies[column] : undefined;
    const max = spec === undefined ? undefined : maxLevelOf(spec);
    if (max !== undefined && level > max) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['levels', column], message: `level ${level} is beyond the hierarchy's ${max} levels` });
  }
}
