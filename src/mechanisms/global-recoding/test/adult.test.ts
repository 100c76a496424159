import { describe, expect, it } from 'vitest';
import { latticeNodesOf } from '../../../common/recoding/lattice.js';
import { ClassBuilder } from '../../../common/recoding/search/class-table.js';
import { checkNode, maxSuppressed } from '../../../common/recoding/search/evaluate.js';
import { measureOf, measureTables } from '../../../common/recoding/search/measures.js';
import { modelContext, type PrivacyModel } from '../../../common/recoding/search/models.js';
import { better, optimalRecoding, type NodeResult } from '../../../common/recoding/search/search.js';
import { ADULT_QUASI, loadAdult } from './adult-fixture.js';

/*
 * The issue's Adult settings (ARX 3.9's example: quasi-identifiers sex, age, race, marital-status,
 * education, native-country, workclass, salary-class with ARX's hierarchies; occupation sensitive
 * for ℓ-diversity and t-closeness). ARX cannot run on this machine, so the optimum of the pruned
 * roll-up search is checked against every one of the 4,320 nodes evaluated from the records.
 */
const SETTINGS: readonly { readonly name: string; readonly models: readonly PrivacyModel[]; readonly limit: number }[] = [
  { name: '5-anonymity, 0 %', models: [{ type: 'k-anonymity', k: 5 }], limit: 0 },
  { name: '5-anonymity, 5 %', models: [{ type: 'k-anonymity', k: 5 }], limit: 0.05 },
  { name: 'distinct 3-diversity, 0 %', models: [{ type: 'distinct-l-diversity', l: 3 }], limit: 0 },
  { name: 'distinct 3-diversity, 5 %', models: [{ type: 'distinct-l-diversity', l: 3 }], limit: 0.05 },
  { name: '0.2-closeness (equal distance), 0 %', models: [{ type: 't-closeness', t: 0.2, distance: 'equal' }], limit: 0 },
  { name: '0.2-closeness (equal distance), 5 %', models: [{ type: 't-closeness', t: 0.2, distance: 'equal' }], limit: 0.05 },
  // The issue may mean ℓ-diversity and t-closeness beside 5-anonymity: both readings are checked.
  { name: '5-anonymity and distinct 3-diversity, 0 %', models: [{ type: 'k-anonymity', k: 5 }, { type: 'distinct-l-diversity', l: 3 }], limit: 0 },
  { name: '5-anonymity and distinct 3-diversity, 5 %', models: [{ type: 'k-anonymity', k: 5 }, { type: 'distinct-l-diversity', l: 3 }], limit: 0.05 },
  { name: '5-anonymity and 0.2-closeness, 0 %', models: [{ type: 'k-anonymity', k: 5 }, { type: 't-closeness', t: 0.2, distance: 'equal' }], limit: 0 },
  { name: '5-anonymity and 0.2-closeness, 5 %', models: [{ type: 'k-anonymity', k: 5 }, { type: 't-closeness', t: 0.2, distance: 'equal' }], limit: 0.05 },
];

describe('Adult, the issue\'s settings under Loss', () => {
  it('the search\'s optimum equals the best of all 4,320 nodes evaluated from the records', () => {
    const adult = loadAdult();
    const n = adult.table.rowCount;
    const builder = new ClassBuilder(adult.columns, adult.occupation, n, undefined);
    const ctx = modelContext(adult.occupation, n);
    const tables = measureTables(adult.columns, n);
    const best: (NodeResult | undefined)[] = SETTINGS.map(() => undefined);
    const satisfying = SETTINGS.map(() => 0);
    for (const node of latticeNodesOf(adult.columns.map((c) => c.depth))) {
      const table = builder.fromRecords(node);
      SETTINGS.forEach((s, i) => {
        const check = checkNode(table, s.models, ctx, maxSuppressed(s.limit, n));
        if (!check.satisfies) return;
        satisfying[i]!++;
        const result = { node, measure: measureOf('loss', table, check.suppressed, node, adult.columns, tables), suppressedRecords: check.suppressedRecords };
        if (better(result, best[i])) best[i] = result;
      });
    }
    SETTINGS.forEach((s, i) => {
      const found = optimalRecoding({ columns: adult.columns, sensitive: adult.occupation, rowCount: n, models: s.models, suppressionLimit: s.limit, measure: 'loss' });
      const full = optimalRecoding({ columns: adult.columns, sensitive: adult.occupation, rowCount: n, models: s.models, suppressionLimit: s.limit, measure: 'loss' }, { prune: false });
      const levels = Object.fromEntries(ADULT_QUASI.map((name, j) => [name, found.optimum?.node[j]]));
      console.log(`${s.name}: levels ${JSON.stringify(levels)}, Loss ${found.optimum?.measure}, suppressed ${found.optimum?.suppressedRecords}, satisfying ${satisfying[i]} of 4320, evaluated ${found.evaluated}`);
      expect(best[i]).toBeDefined();
      expect(found.optimum!.node).toEqual(best[i]!.node);
      expect(Math.abs(found.optimum!.measure - best[i]!.measure)).toBeLessThanOrEqual(1e-9);
      expect(found.optimum!.suppressedRecords).toBe(best[i]!.suppressedRecords);
      expect(full.satisfying).toBe(satisfying[i]);
      expect(found.optimum!.suppressedRecords).toBeLessThanOrEqual(maxSuppressed(s.limit, n));
    });
  }, 300_000);
});
