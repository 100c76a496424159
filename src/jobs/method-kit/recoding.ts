import { resolve } from 'node:path';
import { dateHierarchy, generalizeColumn, withMetadataLoss, HierarchyError, intervalHierarchy, maskingHierarchy, roundingHierarchy, tableHierarchy, unmappedValues, type GeneralizedColumn, type Hierarchy } from '../../common/recoding/hierarchy.js';
import type { Column } from '../../common/table/table.js';
import { readHierarchyRows } from '../../io/input/hierarchy-reader.js';
import type { AnonymityReport } from '../../common/report/report-model.js';
import { JobError } from '../../common/job/job-error.js';
import type { HierarchySpec } from '../../common/recoding/hierarchy-spec.js';
import type { Plan } from './plan.js';
import { own } from '../../common/job/names.js';

export interface Recoding {
  readonly columns: readonly Column[];
  readonly generalized: readonly GeneralizedColumn[];
  /**
   * The same columns with a loss that depends on the hierarchies alone (not on the data's distinct
   * values, which one record can change): what a differentially private release may publish.
   */
  readonly publicLoss: readonly GeneralizedColumn[];
  readonly report: AnonymityReport['columns'];
}

function describe(spec: HierarchySpec): string {
  // Not the file's name: the description is published, and a name is the custodian's label for the data.
  if (typeof spec === 'string') return 'hierarchy table from an ARX CSV file';
  if (spec.type === 'date') return 'dates: year-month, year, decade';
  if (spec.type === 'masking') return `masking of ${spec.length} characters`;
  if (spec.type === 'rounding') return `rounding down to multiples of ${spec.bases.join(', ')}`;
  const coding = [spec.bottom !== undefined ? `values below ${spec.bottom} as <${spec.bottom}` : '', spec.top !== undefined ? `values from ${spec.top} as ${spec.top}+` : ''].filter(Boolean).join(', ');
  return [coding ? `top/bottom coding (${coding})` : '', spec.widths.length > 0 ? `intervals of ${spec.widths.join(', ')}` : ''].filter(Boolean).join(', then ');
}

function build(spec: HierarchySpec, baseDir: string, key: string): Hierarchy {
  try {
    if (typeof spec === 'string') return tableHierarchy(readHierarchyRows(resolve(baseDir, spec)));
    if (spec.type === 'date') return dateHierarchy();
    if (spec.type === 'rounding') return roundingHierarchy(spec.bases);
    return spec.type === 'interval' ? intervalHierarchy(spec.widths, { ...(spec.top !== undefined ? { top: spec.top } : {}), ...(spec.bottom !== undefined ? { bottom: spec.bottom } : {}) }) : maskingHierarchy(spec.length);
  } catch (error) {
    if (error instanceof HierarchyError) throw new JobError(error.message, key);
    throw error;
  }
}

/**
 * Why values of a column cannot be generalized, in the custodian's words: which values, what the
 * column's hierarchy needs of them, and what to do.
 */
export function cannotGeneralize(column: string, spec: HierarchySpec, values: readonly string[]): string {
  const listed = `${values.slice(0, 8).map((v) => JSON.stringify(v)).join(', ')}${values.length > 8 ? `, and ${values.length - 8} more` : ''}`;
  const some = values.length === 1 ? `1 value of "${column}"` : `${values.length} values of "${column}"`;
  const fix = 'correct them in the file or add them to the missing-value codes (input.missing)';
  if (typeof spec === 'string') return `${some} ${values.length === 1 ? 'is' : 'are'} not listed in its hierarchy file: ${listed}; add a row for each to the file (the value, then what it becomes at each level), or ${fix}`;
  if (spec.type === 'date') return `${some} cannot be read as ${values.length === 1 ? 'a date' : 'dates'}, which its date hierarchy needs: ${listed}; dates are read written yyyy-mm-dd, dd.mm.yyyy, dd/mm/yyyy, mm/dd/yyyy, dd-mm-yyyy or yyyymmdd (state the column's form with input.dates), so ${fix}`;
  if (spec.type === 'masking') return `${some} ${values.length === 1 ? 'is' : 'are'} not ${spec.length} characters long, which masking the last characters needs: ${listed}; ${fix}, or choose the length of the column's codes`;
  if (spec.type === 'rounding') return `${some} ${values.length === 1 ? 'is' : 'are'} not ${values.length === 1 ? 'a number' : 'numbers'}, which rounding needs: ${listed}; ${fix}`;
  return `${some} ${values.length === 1 ? 'is' : 'are'} not ${values.length === 1 ? 'a whole number' : 'whole numbers'}, which intervals need: ${listed}; ${fix}`;
}

/** Every hierarchy of the job, built and checked against the data (every value must reach the root). */
export function loadHierarchies(plan: Plan, columns: readonly Column[], hierarchies: Record<string, HierarchySpec>, levels: Record<string, number>, baseDir: string): Map<string, { hierarchy: Hierarchy; description: string }> {
  const known = new Set(plan.columns.map((c) => c.column.name));
  for (const name of [...Object.keys(hierarchies), ...Object.keys(levels)]) {
    if (!known.has(name)) throw new JobError(`the input has no column "${name}"`, Object.hasOwn(hierarchies, name) ? `method.hierarchies.${name}` : `method.levels.${name}`);
  }
  const out = new Map<string, { hierarchy: Hierarchy; description: string }>();
  for (const column of columns) {
    const spec = own(hierarchies, column.name);
    if (!spec) continue;
    const hierarchy = build(spec, baseDir, `method.hierarchies.${column.name}`);
    const unmapped = unmappedValues(column, hierarchy);
    if (unmapped.length > 0) throw new JobError(cannotGeneralize(column.name, spec, unmapped), `method.hierarchies.${column.name}`);
    out.set(column.name, { hierarchy, description: describe(spec) });
  }
  return out;
}

/**
 * The global recoding of every released column at its fixed level, chosen from
 * the job (metadata), never from the data; every value must have a path to the root.
 */
export function recodeColumns(plan: Plan, columns: readonly Column[], hierarchies: Record<string, HierarchySpec>, levels: Record<string, number>, baseDir: string): Recoding {
  const loaded = loadHierarchies(plan, columns, hierarchies, levels, baseDir);
  return recodeAt(columns, loaded, levels);
}

/** The recoding at given levels with hierarchies already loaded. */
export function recodeAt(columns: readonly Column[], loaded: Map<string, { hierarchy: Hierarchy; description: string }>, levels: Record<string, number>): Recoding {
  const report: { name: string; level: number; depth: number; hierarchy: string; example?: string }[] = [];
  const publicLoss: GeneralizedColumn[] = [];
  const generalized = columns.map((column) => {
    const entry = loaded.get(column.name);
    const level = own(levels, column.name) ?? 0;
    if (!entry) {
      if (level > 0) throw new JobError(`level ${level} needs a hierarchy for "${column.name}"`, `method.levels.${column.name}`);
      report.push({ name: column.name, level: 0, depth: 1, hierarchy: 'none (released as collected)' });
      const asCollected = generalizeColumn(column, undefined, 0);
      publicLoss.push(asCollected);
      return asCollected;
    }
    const { hierarchy, description } = entry;
    if (level >= hierarchy.depth) throw new JobError(`level ${level} is beyond the hierarchy's ${hierarchy.depth - 1} levels`, `method.levels.${column.name}`);
    const g = generalizeColumn(column, hierarchy, level);
    publicLoss.push(withMetadataLoss(g, hierarchy, level));
    // The example comes from the hierarchy's definition: a value of the data would be a record's fact in the published report.
    const example = hierarchy.example;
    report.push({ name: column.name, level, depth: hierarchy.depth, hierarchy: description, example: `${example} → ${hierarchy.generalize(example, level) ?? '(not in the hierarchy)'}` });
    return g;
  });
  return { columns, generalized, publicLoss, report };
}
