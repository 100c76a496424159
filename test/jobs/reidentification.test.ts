import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tableFromRows } from '../../src/common/table/table.js';
import { groupRows } from '../../src/common/table/micro-groups.js';
import { resolveRoles } from '../../src/jobs/method-kit/plan.js';
import { reidentificationSection } from '../../src/jobs/method-kit/reidentification.js';
import { reidentificationRisk } from '../../src/common/risk/reidentification.js';

const rowsArb = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 80 });

describe('re-identification risk from the micro groups a randomized method formed', () => {
  it('equals grouping the quasi-identifiers afresh, whether or not a column is insensitive (property)', () => {
    fc.assert(
      fc.property(rowsArb, fc.boolean(), fc.array(fc.nat(), { maxLength: 100 }), (raw, insensitive, picks) => {
        const table = tableFromRows(['a', 'b', 'c', 's'], raw.map((r) => r.map(String)));
        const plan = resolveRoles({ attributes: { s: 'sensitive', ...(insensitive ? { c: 'insensitive' as const } : {}) } }, table);
        const microGroups = groupRows(plan.nonSensitive, table.rowCount);
        const released = Uint32Array.from(picks, (p) => p % table.rowCount);
        // The release's rows counted by the quasi-identifiers' classes, from the rows themselves.
        const classes = groupRows(plan.columns.filter((c) => c.role === 'quasi').map((c) => c.column), table.rowCount);
        const byClass = new Uint32Array(classes.groupCount);
        for (const r of released) byClass[classes.groupOfRow[r]!]!++;
        // What a method hands over: its released rows counted by micro group.
        const byGroup = new Uint32Array(microGroups.groupCount);
        for (const r of released) byGroup[microGroups.groupOfRow[r]!]!++;
        const section = reidentificationSection(plan, table.rowCount, byGroup, microGroups);
        expect(section.release).toEqual(reidentificationRisk(byClass));
        expect(section.original).toEqual(reidentificationSection(plan, table.rowCount, null).original);
        expect(() => reidentificationSection(plan, table.rowCount, byGroup)).toThrow(/micro groups/);
        expect(reidentificationSection(plan, table.rowCount, null, microGroups)).toEqual(reidentificationSection(plan, table.rowCount, null));
      }),
      { numRuns: 200 },
    );
  });
});
