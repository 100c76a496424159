import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tableFromRows } from '../../src/common/table/table.js';
import { groupRows } from '../../src/common/table/micro-groups.js';
import { resolveRoles } from '../../src/jobs/method-kit/plan.js';
import { reidentificationSection } from '../../src/jobs/method-kit/reidentification.js';

const rowsArb = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 80 });

describe('re-identification risk from the micro groups a randomized method formed', () => {
  it('equals grouping the quasi-identifiers afresh, whether or not a column is insensitive (property)', () => {
    fc.assert(
      fc.property(rowsArb, fc.boolean(), fc.array(fc.nat(), { maxLength: 100 }), (raw, insensitive, picks) => {
        const table = tableFromRows(['a', 'b', 'c', 's'], raw.map((r) => r.map(String)));
        const plan = resolveRoles({ attributes: { s: 'sensitive', ...(insensitive ? { c: 'insensitive' as const } : {}) } }, table);
        const microGroups = groupRows(plan.nonSensitive, table.rowCount);
        const released = Uint32Array.from(picks, (p) => p % table.rowCount);
        const fresh = reidentificationSection(plan, table.rowCount, released);
        expect(reidentificationSection(plan, table.rowCount, released, microGroups)).toEqual(fresh);
        expect(reidentificationSection(plan, table.rowCount, null, microGroups)).toEqual(reidentificationSection(plan, table.rowCount, null));
      }),
      { numRuns: 200 },
    );
  });
});
