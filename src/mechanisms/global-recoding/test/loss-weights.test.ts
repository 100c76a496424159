import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latticeNodesOf } from '../../../common/recoding/lattice.js';
import type { PrivacyModel } from '../../../common/recoding/search/models.js';
import { better, bruteForceRecoding, optimalRecoding, type NodeResult } from '../../../common/recoding/search/search.js';
import { ADULT_QUASI, loadAdult } from './adult-fixture.js';
import { caseArb, type Case } from './random-cases.js';
import { refClasses, refMeasure, refSuppress } from './reference.js';

/** A random case under the Loss with a random gsFactor and random attribute weights (0 included: ARX's all-zero case). */
const weightedArb: fc.Arbitrary<Case> = fc
  .tuple(caseArb, fc.constantFrom(0, 0.1, 0.3, 0.5, 0.6, 0.8, 1), fc.array(fc.constantFrom(0, 0.1, 0.25, 0.5, 0.9, 1), { minLength: 3, maxLength: 3 }))
  .map(([c, gsFactor, drawn]) => {
    const weights = c.input.columns.map((_, j) => drawn[j]!);
    const loss = { gsFactor, weights };
    return { input: { ...c.input, measure: 'loss' as const, loss }, ref: { ...c.ref, measure: 'loss' as const, loss } };
  });

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe('the Loss with ARX\'s generalization/suppression factor and attribute weights', () => {
  it('equals a plain per-record reference on every node, and the search finds the brute-force optimum (property)', () => {
    fc.assert(
      fc.property(weightedArb, (c) => {
        const brute = bruteForceRecoding(c.input);
        let best: NodeResult | undefined;
        for (const node of latticeNodesOf(c.input.columns.map((col) => col.depth))) {
          const classes = refClasses(c.ref, node);
          const suppressed = refSuppress(c.ref, classes);
          const measure = refMeasure(c.ref, node, classes);
          const engine = brute.all.find((r) => r.node.every((l, j) => l === node[j]))!;
          expect(Math.abs(engine.measure - measure)).toBeLessThanOrEqual(1e-9);
          if (suppressed > Math.floor(c.ref.limit * c.input.rowCount)) continue;
          const result = { node, measure, suppressedRecords: suppressed };
          if (better(result, best)) best = result;
        }
        if (best) expect(close(brute.optimum!.measure, best.measure) || Math.abs(brute.optimum!.measure - best.measure) <= 1e-9).toBe(true);
        else expect(brute.optimum).toBeUndefined();
        for (const options of [{}, { prune: true, strategy: 'bottom-up' as const }, { prune: true, packed: false, strategy: 'bottom-up' as const }]) {
          const found = optimalRecoding(c.input, options);
          expect(found.optimum?.node).toEqual(brute.optimum?.node);
          if (brute.optimum) expect(close(found.optimum!.measure, brute.optimum.measure)).toBe(true);
        }
      }),
      { seed: 20261128, numRuns: 300 },
    );
  });

  it('gsFactor 0.5 with equal weights is the default Loss to the bit', () => {
    fc.assert(
      fc.property(caseArb, fc.constantFrom(0.2, 0.5, 1), (c, w) => {
        const input = { ...c.input, measure: 'loss' as const };
        const plain = bruteForceRecoding(input);
        const weighted = bruteForceRecoding({ ...input, loss: { gsFactor: 0.5, weights: input.columns.map(() => w) } });
        plain.all.forEach((r, i) => expect(weighted.all[i]!.measure).toBe(r.measure));
      }),
      { seed: 20261129, numRuns: 100 },
    );
  });

  interface Setting {
    readonly name: string;
    readonly suppressionLimit: number;
    readonly gsFactor: number;
    readonly weights: Record<string, number>;
    readonly levels: number[];
    readonly loss: number;
  }
  const figures = JSON.parse(readFileSync('test/fixtures/arx/loss-weights.json', 'utf8')) as { quasi: string[]; settings: Setting[] };

  it('finds ARX 3.9.2\'s optimum and its Loss on Adult (test/fixtures/arx/loss-weights.json, bench/arx-harness/LossWeightsFigures.java)', () => {
    expect(figures.quasi).toEqual([...ADULT_QUASI]);
    expect(figures.settings.length).toBeGreaterThanOrEqual(2);
    const adult = loadAdult();
    for (const s of figures.settings) {
      const models: PrivacyModel[] = s.name.startsWith('distinct 3-diversity') ? [{ type: 'distinct-l-diversity', l: 3 }] : [{ type: 'k-anonymity', k: 5 }];
      const weights = ADULT_QUASI.map((q) => s.weights[q] ?? 0.5);
      const found = optimalRecoding({ columns: adult.columns, sensitive: adult.occupation, rowCount: adult.table.rowCount, models, suppressionLimit: s.suppressionLimit, measure: 'loss', loss: { gsFactor: s.gsFactor, weights } });
      expect(found.optimum?.node, s.name).toEqual(s.levels);
      expect(Math.abs(found.optimum!.measure - s.loss) / s.loss, s.name).toBeLessThanOrEqual(1e-12);
    }
  }, 120_000);
});
