import { groupRows, type Grouping } from '../../common/table/micro-groups.js';
import { reidentificationRisk } from '../../common/risk/reidentification.js';
import type { Report } from '../../common/report/report-model.js';
import type { Plan } from './plan.js';

/**
 * Identity disclosure on the quasi-identifiers, for the input and for the
 * release. releaseRows maps released rows to the input rows whose
 * quasi-identifier values they show (null: the release shows every input row once).
 * microGroups, the rows grouped over every non-sensitive column, spares a
 * second grouping when no column is marked insensitive.
 */
export function reidentificationSection(plan: Plan, rowCount: number, releaseRows: Uint32Array | null, microGroups?: Grouping): NonNullable<Report['risk']['reidentification']> {
  const quasi = plan.columns.filter((c) => c.role === 'quasi').map((c) => c.column);
  // Quasi-identifiers are non-sensitive columns: as many of them means the same columns.
  const grouping = microGroups && quasi.length === plan.nonSensitive.length ? microGroups : groupRows(quasi, rowCount);
  const sizes = new Uint32Array(grouping.groupCount);
  for (let g = 0; g < grouping.groupCount; g++) sizes[g] = grouping.offsets[g + 1]! - grouping.offsets[g]!;
  const original = reidentificationRisk(sizes);
  let release = original;
  if (releaseRows) {
    const released = new Uint32Array(grouping.groupCount);
    countByGroup(released, grouping.groupOfRow, releaseRows);
    release = reidentificationRisk(released);
  }
  return {
    quasiIdentifiers: quasi.map((c) => c.name),
    population: 'none: the sample stands in for the population (journalist risk = prosecutor risk, an upper bound)',
    original,
    release,
  };
}

function countByGroup(counts: Uint32Array, groupOfRow: Uint32Array, rows: Uint32Array): void {
  for (let i = 0; i < rows.length; i++) counts[groupOfRow[rows[i]!]!]!++;
}
