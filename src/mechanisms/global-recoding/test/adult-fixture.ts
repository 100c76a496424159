import { readFileSync } from 'node:fs';
import { tableHierarchy } from '../../../common/recoding/hierarchy.js';
import { tableFromRows, type Table } from '../../../common/table/table.js';
import { readHierarchyRows } from '../../../io/input/hierarchy-reader.js';
import { quasiColumn, sensitiveColumn, type QuasiColumn, type SensitiveColumn } from '../../../common/recoding/search/recoding-input.js';

/** The quasi-identifiers, in ARX's Adult example order. */
export const ADULT_QUASI = ['sex', 'age', 'race', 'marital-status', 'education', 'native-country', 'workclass', 'salary-class'] as const;

export interface AdultFixture {
  readonly table: Table;
  readonly columns: QuasiColumn[];
  readonly occupation: SensitiveColumn;
}

/** resources/adult with ARX's hierarchies, read as the CLI reads it (semicolons, nothing missing). */
export function loadAdult(): AdultFixture {
  const lines = readFileSync('resources/adult/adult.csv', 'utf8').trim().split(/\r?\n/);
  const header = lines[0]!.split(';');
  const table = tableFromRows(header, lines.slice(1).map((l) => l.split(';')), []);
  const column = (name: string) => table.columns.find((c) => c.name === name)!;
  const columns = ADULT_QUASI.map((name) => quasiColumn(column(name), tableHierarchy(readHierarchyRows(`resources/adult/adult_hierarchy_${name}.csv`))));
  return { table, columns, occupation: sensitiveColumn(column('occupation')) };
}
