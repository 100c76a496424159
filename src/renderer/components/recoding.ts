import type { Role } from '../../common/job/job-parts.js';
import { named, own, type Named } from '../../common/job/names.js';
import { dateHierarchy, intervalHierarchy, maskingHierarchy, type Hierarchy } from '../../common/recoding/hierarchy.js';
import { hierarchySpec, maxLevelOf, type HierarchySpec } from '../../common/recoding/hierarchy-spec.js';
import type { ZodIssue } from 'zod';
import type { Problems } from './browser-mechanism.js';
import { plainMessage, specificIssues } from './plain-messages.js';

/** One row of the hierarchy table as the person fills it in. */
export interface HierarchyChoice {
  readonly kind: 'none' | 'file' | 'interval' | 'masking' | 'date';
  readonly file: string;
  /** Comma-separated interval widths, e.g. "5, 10, 20". */
  readonly widths: string;
  readonly length: number;
  readonly level: number;
}

export const NO_HIERARCHY: HierarchyChoice = { kind: 'none', file: '', widths: '10, 20', length: 5, level: 0 };

/** The hierarchies and fixed levels a recoding job gets, from the table's rows. */
export interface RecodingChoice {
  readonly hierarchies: Named<HierarchySpec>;
  readonly levels: Named<number>;
}

function specOf(h: HierarchyChoice): HierarchySpec | undefined {
  if (h.kind === 'file') return h.file;
  if (h.kind === 'interval') return { type: 'interval', widths: h.widths.split(',').map((w) => Number(w.trim())) };
  if (h.kind === 'masking') return { type: 'masking', length: h.length };
  if (h.kind === 'date') return { type: 'date' };
  return undefined;
}

/** The job's hierarchies and levels, from the per-column choices (identifiers are dropped, never recoded). */
export function recodingOf(choices: Named<HierarchyChoice>, roles: Named<Role>): RecodingChoice {
  const hierarchies = named<HierarchySpec>();
  const levels = named<number>();
  for (const [column, h] of Object.entries(choices)) {
    const spec = specOf(h);
    if (spec === undefined || own(roles, column) === 'identifier') continue;
    hierarchies[column] = spec;
    if (h.level > 0) levels[column] = h.level;
  }
  return { hierarchies, levels };
}

/** The table's rows of a job's hierarchies and levels (a saved job being opened). */
export function choicesOf(hierarchies: Named<HierarchySpec>, levels: Named<number> | 'search'): Record<string, HierarchyChoice> {
  const out = named<HierarchyChoice>();
  for (const [column, spec] of Object.entries(hierarchies)) {
    const level = levels === 'search' ? 0 : (own(levels, column) ?? 0);
    if (typeof spec === 'string') out[column] = { ...NO_HIERARCHY, kind: 'file', file: spec, level };
    else if (spec.type === 'interval') out[column] = { ...NO_HIERARCHY, kind: 'interval', widths: spec.widths.join(', '), level };
    else if (spec.type === 'date') out[column] = { ...NO_HIERARCHY, kind: 'date', level };
    else out[column] = { ...NO_HIERARCHY, kind: 'masking', length: spec.length, level };
  }
  return out;
}

/**
 * Problems of each row, checked with the job schema's own hierarchy rules (so
 * the table and the job file agree) and keyed `hierarchy.<column>`.
 */
export function hierarchyProblems(choices: Named<HierarchyChoice>, roles: Named<Role>, searched: boolean): Problems {
  const problems = named<string>();
  for (const [column, h] of Object.entries(choices)) {
    if (h.kind === 'none' || own(roles, column) === 'identifier') continue;
    const key = `hierarchy.${column}`;
    if (h.kind === 'file' && !h.file.trim()) {
      problems[key] = `give the hierarchy file of “${column}”`;
      continue;
    }
    const spec = specOf(h)!;
    const parsed = hierarchySpec.safeParse(spec);
    if (!parsed.success) {
      problems[key] = `“${column}”: ${firstMessage(parsed.error.issues)}`;
      continue;
    }
    const max = maxLevelOf(parsed.data);
    if (!searched && max !== undefined && h.level > max) problems[key] = `“${column}” has only ${max} levels`;
  }
  return problems;
}

function firstMessage(issues: readonly ZodIssue[]): string {
  const issue = specificIssues(issues)[0];
  return issue ? plainMessage(issue) : 'not a valid hierarchy';
}

/**
 * What the first value of a column becomes at the chosen level, as a preview, generalized by the
 * engine's own interval and masking hierarchies (a file's levels are known only to the host).
 */
export function recodingExample(value: string | undefined, h: HierarchyChoice): string {
  if (value === undefined || h.kind === 'none' || h.level === 0) return value ?? '';
  if (h.kind === 'file') return `${value} → level ${h.level} of the file`;
  let hierarchy: Hierarchy;
  try {
    hierarchy = h.kind === 'masking' ? maskingHierarchy(h.length) : h.kind === 'date' ? dateHierarchy() : intervalHierarchy(h.widths.split(',').map((w) => Number(w.trim())));
  } catch {
    return value;
  }
  if (h.level >= hierarchy.depth) return value;
  const generalized = hierarchy.generalize(value, h.level);
  if (generalized !== undefined) return `${value} → ${generalized}`;
  return h.kind === 'masking' ? `${value}: not ${h.length} characters long` : h.kind === 'date' ? `${value}: not a date (YYYY-MM-DD)` : `${value}: not a whole number`;
}
