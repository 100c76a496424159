import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heuristicRecoding } from '../../../common/recoding/search/heuristic.js';
import { bruteForceRecoding, type NodeResult } from '../../../common/recoding/search/search.js';
import { better } from '../../../common/recoding/search/optimum.js';
import { caseArb } from './random-cases.js';

const SEED = 20261128;
const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** Bounds drawn per column inside its levels, or none. */
const boundedCase = caseArb.chain((c) =>
  fc.record({
    c: fc.constant(c),
    bounds: fc.tuple(...c.input.columns.map((col) => fc.option(fc.tuple(fc.integer({ min: 0, max: col.depth - 1 }), fc.integer({ min: 0, max: col.depth - 1 })).map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) })), { nil: undefined }))),
    steps: fc.integer({ min: 1, max: 30 }),
  }),
);

describe('heuristic search for large lattices', () => {
  it('with a budget of as many steps as nodes, it completes and returns the exhaustive optimum, its bound equal to its measure (property)', () => {
    fc.assert(
      fc.property(boundedCase, ({ c, bounds }) => {
        const input = { ...c.input, bounds };
        const brute = bruteForceRecoding(input);
        const found = heuristicRecoding(input, { steps: brute.nodes });
        expect(found.stoppedBy).toBe('completed');
        expect(found.steps).toBeLessThanOrEqual(brute.nodes);
        expect(found.optimum === undefined).toBe(brute.optimum === undefined);
        if (brute.optimum) {
          expect(found.optimum!.node).toEqual(brute.optimum.node);
          expect(close(found.optimum!.measure, brute.optimum.measure)).toBe(true);
          expect(found.lowerBound).toBe(found.optimum!.measure);
        } else expect(found.lowerBound).toBeUndefined();
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('under any step budget: returns only a transformation that meets the models, its bound never exceeds the optimum, and the same steps give the same answer (property)', () => {
    fc.assert(
      fc.property(boundedCase, ({ c, bounds, steps }) => {
        const input = { ...c.input, bounds };
        const brute = bruteForceRecoding(input);
        const found = heuristicRecoding(input, { steps });
        expect(found.steps).toBeLessThanOrEqual(steps);
        if (found.optimum) {
          const same = brute.all.find((r) => r.node.every((level, j) => level === found.optimum!.node[j]))!;
          expect(same.satisfies).toBe(true);
          expect(close(same.measure, found.optimum.measure)).toBe(true);
          expect(found.optimum.suppressedRecords).toBe(same.suppressedRecords);
          // The stated gap is a true bound: no transformation that meets the models does better than it.
          expect(found.lowerBound).toBeDefined();
          expect(found.lowerBound!).toBeLessThanOrEqual(brute.optimum!.measure + 1e-9 * Math.max(1, brute.optimum!.measure));
          expect(found.lowerBound!).toBeLessThanOrEqual(found.optimum.measure);
          let best: NodeResult | undefined;
          for (const r of brute.all) if (r.satisfies && better(r, best)) best = r;
          if (found.stoppedBy === 'completed') expect(found.optimum.node).toEqual(best!.node);
        } else if (found.stoppedBy === 'completed') expect(brute.optimum).toBeUndefined();
        const again = heuristicRecoding(input, { steps });
        expect(again.optimum?.node).toEqual(found.optimum?.node);
        expect(again.lowerBound).toBe(found.lowerBound);
        expect(again.steps).toBe(found.steps);
      }),
      { seed: SEED + 1, numRuns: 400 },
    );
  });

  it('stops on its time budget, saying so, with the clock it is given', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        let t = 0;
        // Each look at the clock moves it 10 ms: a 25 ms budget allows at most three evaluations.
        const found = heuristicRecoding(c.input, { milliseconds: 25, now: () => (t += 10) - 10 });
        expect(found.steps).toBeLessThanOrEqual(3);
        if (found.stoppedBy !== 'completed') expect(found.stoppedBy).toBe('time');
      }),
      { seed: SEED + 2, numRuns: 50 },
    );
  });

  it('reports progress as the share of its budget spent, rising to 1', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 64 }), (c, steps) => {
        const seen: number[] = [];
        heuristicRecoding(c.input, { steps, onProgress: (f) => seen.push(f) });
        expect(seen[seen.length - 1]).toBe(1);
        for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
        for (const f of seen) expect(f >= 0 && f <= 1).toBe(true);
      }),
      { seed: SEED + 3, numRuns: 50 },
    );
  });
});
