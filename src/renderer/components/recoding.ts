import type { Role } from '../../common/job/job-parts.js';
import { named, own, type Named } from '../../common/job/names.js';
import { dateHierarchy, intervalHierarchy, maskingHierarchy, roundingHierarchy, type Hierarchy } from '../../common/recoding/hierarchy.js';
import { hierarchySpec, maxLevelOf, type HierarchySpec } from '../../common/recoding/hierarchy-spec.js';
import type { ZodIssue } from 'zod';
import type { ColumnInfo } from '../../common/ipc/api.js';
import type { Problems } from './browser-mechanism.js';
import { plainMessage, specificIssues } from './plain-messages.js';

/** One row of the hierarchy table as the person fills it in. */
export interface HierarchyChoice {
  readonly kind: 'none' | 'file' | 'interval' | 'rounding' | 'masking' | 'date';
  readonly file: string;
  /** Comma-separated interval widths, e.g. "5, 10, 20" (may be empty with a top or bottom code). */
  readonly widths: string;
  /** Top and bottom coding of intervals ("90" → 90+), empty for none. */
  readonly top: string;
  readonly bottom: string;
  /** Comma-separated rounding bases, e.g. "5, 10, 100" (each a multiple of the one before). */
  readonly bases: string;
  readonly length: number;
  readonly level: number;
}

export const NO_HIERARCHY: HierarchyChoice = { kind: 'none', file: '', widths: '10, 20', top: '', bottom: '', bases: '5, 10', length: 5, level: 0 };

/** The interval widths and the top and bottom codes as typed (an empty field is none). */
function intervalParts(h: HierarchyChoice): { widths: number[]; top?: number; bottom?: number } {
  const widths = h.widths.trim() === '' ? [] : h.widths.split(',').map((w) => Number(w.trim()));
  return { widths, ...(h.top.trim() !== '' ? { top: Number(h.top.trim()) } : {}), ...(h.bottom.trim() !== '' ? { bottom: Number(h.bottom.trim()) } : {}) };
}

/** The rounding bases as typed (an empty field is none, which the schema refuses). */
function roundingBases(h: HierarchyChoice): number[] {
  return h.bases.trim() === '' ? [] : h.bases.split(',').map((b) => Number(b.trim()));
}

/** The host's check of a hierarchy file against its column (for the file and path in `key`). */
export interface HierarchyCheck {
  readonly key: string;
  readonly levels?: number;
  readonly unmapped?: readonly string[];
  readonly unmappedCount?: number;
  readonly failure?: string;
}

/** Which file and path a check answers: a check of another file or path is stale. */
export const checkKey = (fileId: string, path: string): string => `${fileId}|${path}`;

/** The hierarchies and fixed levels a recoding job gets, from the table's rows. */
export interface RecodingChoice {
  readonly hierarchies: Named<HierarchySpec>;
  readonly levels: Named<number>;
}

function specOf(h: HierarchyChoice): HierarchySpec | undefined {
  if (h.kind === 'file') return h.file;
  if (h.kind === 'interval') return { type: 'interval', ...intervalParts(h) };
  if (h.kind === 'rounding') return { type: 'rounding', bases: roundingBases(h) };
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
    else if (spec.type === 'interval') out[column] = { ...NO_HIERARCHY, kind: 'interval', widths: spec.widths.join(', '), top: spec.top === undefined ? '' : String(spec.top), bottom: spec.bottom === undefined ? '' : String(spec.bottom), level };
    else if (spec.type === 'rounding') out[column] = { ...NO_HIERARCHY, kind: 'rounding', bases: spec.bases.join(', '), level };
    else if (spec.type === 'date') out[column] = { ...NO_HIERARCHY, kind: 'date', level };
    else out[column] = { ...NO_HIERARCHY, kind: 'masking', length: spec.length, level };
  }
  return out;
}

/** What the checks of the hierarchy table can use: the opened file's columns and the host's file checks. */
export interface RecodingChecks {
  readonly fileId?: string;
  readonly columns?: readonly ColumnInfo[];
  readonly files?: Named<HierarchyCheck>;
}

function valuesList(values: readonly string[], count: number): string {
  const shown = values.map((v) => `“${v}”`).join(', ');
  return count > values.length ? `${shown} and ${count - values.length} more` : shown;
}

/**
 * Problems of each row, checked where they are typed: the job schema's own hierarchy rules (so the
 * table and the job file agree), the levels a hierarchy has, and the values it cannot generalize
 * (a file, by the host; intervals, masking and dates, on the values the preview knows), keyed
 * `hierarchy.<column>`.
 */
export function hierarchyProblems(choices: Named<HierarchyChoice>, roles: Named<Role>, searched: boolean, checks: RecodingChecks = {}): Problems {
  const problems = named<string>();
  for (const [column, h] of Object.entries(choices)) {
    if (h.kind === 'none' || own(roles, column) === 'identifier') continue;
    const key = `hierarchy.${column}`;
    if (h.kind === 'file') {
      if (!h.file.trim()) {
        problems[key] = `give the hierarchy file of “${column}”`;
        continue;
      }
      const check = checks.files ? own(checks.files, column) : undefined;
      if (!check || !checks.fileId || check.key !== checkKey(checks.fileId, h.file)) continue;
      if (check.failure) problems[key] = check.failure;
      else if (check.unmappedCount) problems[key] = `${check.unmappedCount === 1 ? '1 value' : `${check.unmappedCount} values`} of “${column}” ${check.unmappedCount === 1 ? 'is' : 'are'} not in the file: ${valuesList(check.unmapped ?? [], check.unmappedCount)}`;
      else if (!searched && check.levels !== undefined && h.level > check.levels) problems[key] = `“${column}” has only ${check.levels} levels in this file`;
      continue;
    }
    const spec = specOf(h)!;
    const parsed = hierarchySpec.safeParse(spec);
    if (!parsed.success) {
      problems[key] = `“${column}”: ${firstMessage(parsed.error.issues)}`;
      continue;
    }
    const max = maxLevelOf(parsed.data);
    if (!searched && max !== undefined && h.level > max) {
      problems[key] = `“${column}” has only ${max} levels`;
      continue;
    }
    // Every value must have a generalization at every level; the preview knows all values of a column with few of them.
    const info = checks.columns?.find((c) => c.name === column);
    if (info && info.distinct <= info.top.length) {
      const hierarchy = engineHierarchy(h);
      const bad = hierarchy ? info.top.map((t) => t.value).filter((v) => hierarchy.generalize(v, 1) === undefined) : [];
      if (bad.length > 0) problems[key] = `${bad.length === 1 ? '1 value' : `${bad.length} values`} of “${column}” cannot be ${h.kind === 'masking' ? `masked as codes of ${h.length} characters` : h.kind === 'date' ? 'read as dates (in any form the Columns step can read: correct them or add them to the missing-value codes)' : h.kind === 'rounding' ? 'rounded (numbers only)' : 'put in intervals (whole numbers only)'}: ${valuesList(bad.slice(0, 8), bad.length)}`;
    }
  }
  return problems;
}

/** The engine's hierarchy for a row defined in the table itself (not a file), or undefined when its definition is invalid. */
function engineHierarchy(h: HierarchyChoice): Hierarchy | undefined {
  try {
    if (h.kind === 'masking') return maskingHierarchy(h.length);
    if (h.kind === 'date') return dateHierarchy();
    if (h.kind === 'rounding') return roundingHierarchy(roundingBases(h));
    if (h.kind === 'interval') {
      const { widths, top, bottom } = intervalParts(h);
      return intervalHierarchy(widths, { ...(top !== undefined ? { top } : {}), ...(bottom !== undefined ? { bottom } : {}) });
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function firstMessage(issues: readonly ZodIssue[]): string {
  const issue = specificIssues(issues)[0];
  return issue ? plainMessage(issue) : 'not a valid hierarchy';
}

/**
 * What the first value of a column becomes at the chosen level, as a preview, generalized by the
 * engine's own interval, rounding, masking and date hierarchies (a file's levels are known only to the host).
 */
export function recodingExample(value: string | undefined, h: HierarchyChoice, searched = false): string {
  if (value === undefined || h.kind === 'none' || (h.level === 0 && !(searched && h.kind === 'file'))) return value ?? '';
  // The level is the search's to choose: the preview cannot show one generalization.
  if (h.kind === 'file') return searched ? `${value} → (level searched)` : `${value} → level ${h.level} of the file`;
  const hierarchy = engineHierarchy(h);
  if (!hierarchy) return value;
  if (h.level >= hierarchy.depth) return value;
  const generalized = hierarchy.generalize(value, h.level);
  if (generalized !== undefined) return `${value} → ${generalized}`;
  return h.kind === 'masking' ? `${value}: not ${h.length} characters long` : h.kind === 'date' ? `${value}: not a date` : h.kind === 'rounding' ? `${value}: not a number` : `${value}: not a whole number`;
}
