import { groupRows, type Grouping } from '../../common/table/micro-groups.js';
import { reidentificationRisk } from '../../common/risk/reidentification.js';
import type { Report } from '../../common/report/report-model.js';
import { quasiAreNonSensitive, type Plan } from './plan.js';

/**
 * Identity disclosure on the quasi-identifiers, for the input and for the
 * release. releasedByGroup: how many released rows show each micro group's
 * quasi-identifier values (the release's rows counted by group; null: the
 * release shows every input row once). microGroups, the rows grouped over every
 * non-sensitive column (required with releasedByGroup), spares a second grouping
 * when no column is marked insensitive.
 */
export function reidentificationSection(plan: Plan, rowCount: number, releasedByGroup: Uint32Array | null, microGroups?: Grouping): NonNullable<Report['risk']['reidentification']> {
  const quasi = plan.columns.filter((c) => c.role === 'quasi').map((c) => c.column);
  const grouping = microGroups && quasiAreNonSensitive(plan) ? microGroups : groupRows(quasi, rowCount);
  const sizes = new Uint32Array(grouping.groupCount);
  for (let g = 0; g < grouping.groupCount; g++) sizes[g] = grouping.offsets[g + 1]! - grouping.offsets[g]!;
  const original = reidentificationRisk(sizes);
  let release = original;
  if (releasedByGroup) {
    if (!microGroups || releasedByGroup.length !== microGroups.groupCount) throw new Error('released rows by group need the micro groups they count');
    release = reidentificationRisk(grouping === microGroups ? releasedByGroup : foldedInto(grouping, microGroups, releasedByGroup));
  }
  return {
    quasiIdentifiers: quasi.map((c) => c.name),
    population: 'none: the sample stands in for the population (journalist risk = prosecutor risk, an upper bound)',
    original,
    release,
  };
}

/** Counts by micro group summed into the coarser classes of the quasi-identifiers: a micro group lies in one class (its first row's). */
function foldedInto(classes: Grouping, microGroups: Grouping, byGroup: Uint32Array): Uint32Array {
  const out = new Uint32Array(classes.groupCount);
  for (let g = 0; g < microGroups.groupCount; g++) {
    if (byGroup[g]! > 0) out[classes.groupOfRow[microGroups.rowsByGroup[microGroups.offsets[g]!]!]!]! += byGroup[g]!;
  }
  return out;
}
