import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tableHierarchy } from '../../../common/recoding/hierarchy.js';
import { latticeNodesOf } from '../../../common/recoding/lattice.js';
import { tableFromRows } from '../../../common/table/table.js';
import type { Measure } from '../../../common/recoding/search/measures.js';
import type { PrivacyModel } from '../../../common/recoding/search/models.js';
import { quasiColumn } from '../../../common/recoding/search/recoding-input.js';
import { better, bruteForceRecoding, optimalRecoding, type NodeResult, type SearchInput, type SearchOptions } from '../../../common/recoding/search/search.js';
import { caseArb, type Case } from './random-cases.js';
import { refClasses, refMeasure, refMeets, refSuppress } from './reference.js';

const SEED = 20261124;

/** The reference's optimum over every node, with the engine's order of candidates. */
function referenceOptimum(c: Case): { best: NodeResult | undefined; satisfying: number } {
  let best: NodeResult | undefined;
  let satisfying = 0;
  const n = c.ref.sensitive.length;
  for (const node of latticeNodesOf(c.input.columns.map((col) => col.depth))) {
    const classes = refClasses(c.ref, node);
    const suppressed = refSuppress(c.ref, classes);
    if (suppressed > Math.floor(c.ref.limit * n)) continue;
    satisfying++;
    const result = { node, measure: refMeasure(c.ref, node, classes), suppressedRecords: suppressed };
    if (better(result, best)) best = result;
  }
  return { best, satisfying };
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe('optimal global recoding', () => {
  it('the pruned roll-up search finds the optimum of a brute-force search over every node (property)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const brute = bruteForceRecoding(c.input);
        const exact = c.input.models.every((m) => m.type === 'k-anonymity' || m.type === 'distinct-l-diversity' || m.type === 'maximum-risk' || m.type === 'average-risk');
        const upSet = c.input.models.every((m) => m.type === 'k-anonymity' || m.type === 'distinct-l-diversity' || m.type === 'maximum-risk') || (exact && Math.floor(c.input.suppressionLimit * c.input.rowCount) === 0);
        const strategies: SearchOptions[] = [{ prune: true, strategy: 'bottom-up' }, { prune: false }, { prune: true, packed: false, strategy: 'bottom-up' }, { prune: true }];
        if (upSet) strategies.push({ prune: true, strategy: 'top-down' }, { prune: false, strategy: 'top-down' }, { prune: true, packed: false, strategy: 'top-down' });
        for (const options of strategies) {
          const found = optimalRecoding(c.input, options);
          expect(found.optimum === undefined).toBe(brute.optimum === undefined);
          if (brute.optimum) {
            expect(close(found.optimum!.measure, brute.optimum.measure)).toBe(true);
            expect(found.optimum!.node).toEqual(brute.optimum.node);
            expect(found.optimum!.suppressedRecords).toBe(brute.optimum.suppressedRecords);
          }
          if (found.satisfyingExact) expect(found.satisfying).toBe(brute.satisfying);
          else expect(found.satisfying).toBeLessThanOrEqual(brute.satisfying);
        }
        expect(optimalRecoding(c.input, { prune: false }).satisfyingExact).toBe(true);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('models and measures equal a plain reference implementation on every node, and the optimum is the reference optimum (property)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const brute = bruteForceRecoding(c.input);
        const n = c.input.rowCount;
        for (const result of brute.all) {
          const classes = refClasses(c.ref, result.node);
          const suppressed = refSuppress(c.ref, classes);
          expect(result.suppressedRecords).toBe(suppressed);
          expect(result.satisfies).toBe(suppressed <= Math.floor(c.input.suppressionLimit * n));
          expect(Math.abs(result.measure - refMeasure(c.ref, result.node, classes))).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(result.measure)));
        }
        const ref = referenceOptimum(c);
        expect(brute.satisfying).toBe(ref.satisfying);
        if (ref.best) expect(close(brute.optimum!.measure, ref.best.measure) || Math.abs(brute.optimum!.measure - ref.best.measure) <= 1e-6).toBe(true);
        else expect(brute.optimum).toBeUndefined();
      }),
      { seed: SEED + 1, numRuns: 300 },
    );
  });

  it('every class the optimum releases meets every model, and no more than the limit is suppressed (property)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { optimum } = optimalRecoding(c.input);
        if (!optimum) return;
        const classes = refClasses(c.ref, optimum.node);
        refSuppress(c.ref, classes);
        const released = classes.filter((cls) => !cls.suppressed);
        const suppressed = classes.filter((cls) => cls.suppressed).reduce((s, cls) => s + cls.records.length, 0);
        expect(suppressed).toBe(optimum.suppressedRecords);
        expect(suppressed).toBeLessThanOrEqual(Math.floor(c.input.suppressionLimit * c.input.rowCount));
        for (const cls of released) for (const model of c.input.models) expect(refMeets(model, c.ref, cls.records)).toBe(true);
        for (const model of c.input.models) {
          if (model.type !== 'average-risk' || released.length === 0) continue;
          expect(released.length / released.reduce((s, cls) => s + cls.records.length, 0)).toBeLessThanOrEqual(model.risk);
        }
      }),
      { seed: SEED + 2, numRuns: 300 },
    );
  });

  it('with level bounds, the optimum of every strategy is the best of a brute force over the whole lattice restricted to the bounds (property)', () => {
    const boundedCase = caseArb.chain((c) =>
      fc.record({
        c: fc.constant(c),
        // Per column: no bound, or a range drawn inside its levels (a pinned level when both ends meet).
        bounds: fc.tuple(...c.input.columns.map((col) => fc.option(fc.tuple(fc.integer({ min: 0, max: col.depth - 1 }), fc.integer({ min: 0, max: col.depth - 1 })).map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) })), { nil: undefined }))),
      }),
    );
    fc.assert(
      fc.property(boundedCase, ({ c, bounds }) => {
        const inside = (node: readonly number[]) => node.every((level, j) => !bounds[j] || (level >= bounds[j]!.min && level <= bounds[j]!.max));
        const allowed = bruteForceRecoding(c.input).all.filter((r) => inside(r.node));
        let best: NodeResult | undefined;
        for (const r of allowed) if (r.satisfies && better(r, best)) best = r;
        const input = { ...c.input, bounds };
        const exact = c.input.models.every((m) => m.type === 'k-anonymity' || m.type === 'distinct-l-diversity' || m.type === 'maximum-risk' || m.type === 'average-risk');
        const upSet = c.input.models.every((m) => m.type === 'k-anonymity' || m.type === 'distinct-l-diversity' || m.type === 'maximum-risk') || (exact && Math.floor(c.input.suppressionLimit * c.input.rowCount) === 0);
        const strategies: SearchOptions[] = [{ prune: true, strategy: 'bottom-up' }, { prune: false }, { prune: true, packed: false, strategy: 'bottom-up' }, { prune: true }];
        if (upSet) strategies.push({ prune: true, strategy: 'top-down' }, { prune: false, strategy: 'top-down' });
        for (const options of strategies) {
          const found = optimalRecoding(input, options);
          expect(found.nodes).toBe(allowed.length);
          expect(found.optimum === undefined).toBe(best === undefined);
          if (best) {
            expect(found.optimum!.node).toEqual(best.node);
            expect(close(found.optimum!.measure, best.measure)).toBe(true);
            expect(found.optimum!.suppressedRecords).toBe(best.suppressedRecords);
          }
          const satisfying = allowed.filter((r) => r.satisfies).length;
          if (found.satisfyingExact) expect(found.satisfying).toBe(satisfying);
          else expect(found.satisfying).toBeLessThanOrEqual(satisfying);
        }
      }),
      { seed: SEED + 3, numRuns: 400 },
    );
  });

  it('without pruning, onSatisfying is told of exactly the nodes the brute force finds satisfying, each with its measure (the solution space; property)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const told: NodeResult[] = [];
        optimalRecoding(c.input, { prune: false, onSatisfying: (r) => told.push(r) });
        const brute = bruteForceRecoding(c.input).all.filter((r) => r.satisfies);
        expect(told.map((r) => r.node.join(',')).sort()).toEqual(brute.map((r) => r.node.join(',')).sort());
        for (const r of told) expect(close(r.measure, brute.find((b) => b.node.join(',') === r.node.join(','))!.measure)).toBe(true);
      }),
      { seed: SEED + 5, numRuns: 200 },
    );
  });

  it('refuses bounds outside a column\'s levels', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const depth = c.input.columns[0]!.depth;
        expect(() => optimalRecoding({ ...c.input, bounds: [{ min: 0, max: depth }] })).toThrow(RangeError);
        expect(() => optimalRecoding({ ...c.input, bounds: [{ min: 1, max: 0 }] })).toThrow(RangeError);
      }),
      { seed: SEED + 4, numRuns: 20 },
    );
  });
});

describe('measures on a worked example', () => {
  // Four records, one column with hierarchy a,b → ab; c,d → cd; then *. Domain 4 values.
  const rows = [['a'], ['b'], ['c'], ['c']];
  const h = tableHierarchy([['a', 'ab', '*'], ['b', 'ab', '*'], ['c', 'cd', '*'], ['d', 'cd', '*']]);
  const table = tableFromRows(['q'], rows, []);
  const base = (measure: Measure, models: PrivacyModel[], limit: number): SearchInput => ({ columns: [quasiColumn(table.columns[0]!, h)], rowCount: 4, models, suppressionLimit: limit, measure });
  const at = (input: SearchInput, level: number): NodeResult & { satisfies: boolean } => bruteForceRecoding(input).all.find((r) => r.node[0] === level)!;

  it('Loss (ARX MetricMDNMLoss): shares 2/4 at level 1, normalized (x − n/4)/(n − n/4)', () => {
    // Level 1, k = 2: classes ab (2) and cd (2), each share 1/2: x = 4·½ = 2, (2 − 1)/(4 − 1) = 1/3.
    expect(at(base('loss', [{ type: 'k-anonymity', k: 2 }], 0), 1).measure).toBeCloseTo(1 / 3, 9);
    // Level 0 with 50 % suppression: a and b suppressed (1 each), c,c released at share 1/4: x = 2 + 2/4 = 2.5 → 1.5/3.
    const level0 = at(base('loss', [{ type: 'k-anonymity', k: 2 }], 0.5), 0);
    expect(level0.satisfies).toBe(true);
    expect(level0.suppressedRecords).toBe(2);
    expect(level0.measure).toBeCloseTo(0.5, 12);
  });

  it('discernibility, AECS, precision and non-uniform entropy at level 0 with a and b suppressed', () => {
    const models: PrivacyModel[] = [{ type: 'k-anonymity', k: 2 }];
    expect(at(base('discernibility', models, 0.5), 0).measure).toBe(2 * 2 + 4 * 2); // c,c released (2²); a, b suppressed (4 each)
    expect(at(base('aecs', models, 0.5), 0).measure).toBe(4 / 2); // one released class + the suppressed records as one
    expect(at(base('precision', models, 0.5), 0).measure).toBeCloseTo((2 * 0 + 2) / 4, 12);
    // Entropy: nothing generalized (0), the suppressed a and b: −(1·log₂ ½ + 1·log₂ ½) = 2.
    expect(at(base('entropy', models, 0.5), 0).measure).toBeCloseTo(2, 9);
    // Level 1, nothing suppressed: −(log₂ ½ + log₂ ½ + 2·log₂ 1) = 2.
    expect(at(base('entropy', models, 0), 1).measure).toBeCloseTo(2, 9);
  });
});
