import type { HierarchySpec } from '../../common/recoding/hierarchy-spec.js';
import { dateHierarchy, intervalHierarchy, maskingHierarchy, roundingHierarchy, type Hierarchy } from '../../common/recoding/hierarchy.js';
import type { Report } from '../../common/report/report-model.js';
import type { Table } from '../../common/table/table.js';
import type { CheckList } from '../method-kit/checks.js';

/** A suppressed cell (global recoding's local suppression) and every hierarchy's top level. */
const SUPPRESSED = '*';

/** A hierarchy the job itself defines (not a file, which the release folder does not hold). */
function builtIn(spec: HierarchySpec): Hierarchy | undefined {
  if (typeof spec === 'string') return undefined;
  if (spec.type === 'date') return dateHierarchy();
  if (spec.type === 'rounding') return roundingHierarchy(spec.bases);
  if (spec.type === 'masking') return maskingHierarchy(spec.length);
  return intervalHierarchy(spec.widths, { ...(spec.top !== undefined ? { top: spec.top } : {}), ...(spec.bottom !== undefined ? { bottom: spec.bottom } : {}) });
}

/**
 * Values that, if the value is a generalization at some level, generalize to it there: a band's
 * lower end ("20-29" → 20), a top code ("90+" → 90), a bottom code's value below ("<18" → 17), a
 * mask's digits as zeros, a month's, year's or decade's first day, the value itself (rounding).
 */
function preimages(value: string): string[] {
  const out = [value, value.replace(/\*/g, '0'), `${value}-01`, `${value}-01-01`, `${value.slice(0, 4)}-01-01`];
  const lead = /^(-?\d+)/.exec(value);
  if (lead) out.push(lead[1]!);
  const below = /^<(-?\d+)$/.exec(value);
  if (below) out.push(String(Number(below[1]) - 1));
  return out;
}

/** Whether a released value is a value of the hierarchy at this level: some value generalizes to it there. */
function isLevelValue(hierarchy: Hierarchy, level: number, value: string): boolean {
  return preimages(value).some((x) => hierarchy.generalize(x, level) === value);
}

/**
 * Every released value of a column recoded with a hierarchy the job defines (intervals, masking,
 * rounding, dates) is a value of that hierarchy at the level the report states, a missing value, or
 * the suppression symbol: a value rewritten outside the hierarchy (the input's own ages in place of
 * their bands) fails, from the release folder alone and whatever formats it holds.
 */
export function checkRecodedValues(report: Report, hierarchies: Readonly<Record<string, HierarchySpec>>, release: Table, checks: CheckList): void {
  const levels = new Map((report.anonymity?.columns ?? []).map((c) => [c.name, c.level]));
  const checked: string[] = [];
  const problems: string[] = [];
  for (const column of release.columns) {
    if (!Object.hasOwn(hierarchies, column.name)) continue;
    const hierarchy = builtIn(hierarchies[column.name]!);
    const level = levels.get(column.name);
    // Level 0 releases the values as collected: nothing a hierarchy says about them.
    if (!hierarchy || level === undefined || level === 0) continue;
    checked.push(`${column.name} (level ${level})`);
    const outside = column.dictionary.filter((value, code) => code !== 0 && value !== '' && value !== SUPPRESSED && !isLevelValue(hierarchy, level, value));
    if (outside.length > 0) problems.push(`${column.name}: ${outside.length} value(s) not of its hierarchy at level ${level}, e.g. ${outside.slice(0, 3).map((v) => JSON.stringify(v)).join(', ')}`);
  }
  if (checked.length === 0) return;
  checks.add(
    'recoded values of their hierarchies',
    problems.length === 0,
    problems.length === 0 ? `every released value of ${checked.join(', ')} is a value of the job's hierarchy at that level (or missing, or ${SUPPRESSED})` : problems.join('; '),
  );
}
