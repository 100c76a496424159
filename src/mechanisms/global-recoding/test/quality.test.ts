import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClassBuilder } from '../../../common/recoding/search/class-table.js';
import { checkNode, maxSuppressed } from '../../../common/recoding/search/evaluate.js';
import { measureOf, measureTables } from '../../../common/recoding/search/measures.js';
import { modelContext } from '../../../common/recoding/search/models.js';
import { nodeQuality } from '../../../common/recoding/search/node-quality.js';
import { latticeNodesOf } from '../../../common/recoding/lattice.js';
import { caseArb } from './random-cases.js';

describe('the report\'s quality measures against the search\'s measures (ARX\'s)', () => {
  it('discernibility and the mean precision equal ARX\'s measures, and the non-uniform entropy with nothing suppressed ARX\'s entropy, on every node (property)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { columns, rowCount, sensitive, models, suppressionLimit } = c.input;
        const builder = new ClassBuilder(columns, sensitive, rowCount);
        const tables = measureTables(columns, rowCount);
        const ctx = modelContext(sensitive, rowCount);
        for (const node of latticeNodesOf(columns.map((col) => col.depth))) {
          const table = builder.fromRecords(node);
          const check = checkNode(table, models, ctx, maxSuppressed(suppressionLimit, rowCount));
          const q = nodeQuality(columns, node, table.classOf, check.suppressed, rowCount);
          expect(q.discernibility).toBe(measureOf('discernibility', table, check.suppressed, node, columns, tables));
          const precision = q.attributes.reduce((s, a) => s + a.precision, 0) / q.attributes.length;
          expect(precision).toBeCloseTo(measureOf('precision', table, check.suppressed, node, columns, tables), 12);
          if (check.suppressedRecords === 0) {
            const entropy = q.attributes.reduce((s, a) => s + a.nonUniformEntropy, 0);
            expect(Math.abs(entropy - measureOf('entropy', table, check.suppressed, node, columns, tables))).toBeLessThanOrEqual(1e-6 * Math.max(1, entropy));
            // Nothing suppressed: p̂ is a distribution over the leaf tuples and KL ≥ 0.
            expect(q.klDivergence).toBeGreaterThanOrEqual(-1e-12);
          }
          expect(q.height).toBe(node.reduce((s, l) => s + l, 0));
        }
      }),
      { seed: 20261129, numRuns: 150 },
    );
  });
});
