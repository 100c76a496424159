import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hierarchySpec, maxLevelOf } from '../hierarchy-spec.js';
import { HierarchyError, roundingHierarchy } from '../hierarchy.js';

describe('rounding hierarchies', () => {
  it('rounds down to a multiple of each base in turn, then "*"', () => {
    const h = roundingHierarchy([5, 10, 100]);
    expect(h.depth).toBe(5);
    expect([0, 1, 2, 3, 4].map((l) => h.generalize('37', l))).toEqual(['37', '35', '30', '0', '*']);
    expect([1, 2, 3].map((l) => h.generalize('199', l))).toEqual(['195', '190', '100']);
    // Down, not to the nearest: 39 is 35 at base 5 (the band 35 … 39), not 40.
    expect(h.generalize('39', 1)).toBe('35');
    expect(h.generalize('40', 1)).toBe('40');
    // Negative values and decimals round down too; no "-0".
    expect([1, 2, 3].map((l) => h.generalize('-3', l))).toEqual(['-5', '-10', '-100']);
    expect(h.generalize('37.6', 1)).toBe('35');
    expect(h.generalize('0.4', 1)).toBe('0');
    expect(h.generalize('-0', 1)).toBe('0');
    // Not a number: no generalization (the job names such values).
    expect(h.generalize('abc', 1)).toBeUndefined();
    expect(h.generalize('', 1)).toBeUndefined();
    expect(h.coverage('35', 1)).toBe(5);
    expect(h.coverage('*', 4)).toBe(Infinity);
    expect(h.example).toBe('199');
  });

  it('refuses bases that do not nest, in the engine and in the job schema', () => {
    expect(() => roundingHierarchy([])).toThrow(HierarchyError);
    expect(() => roundingHierarchy([5, 12])).toThrow(/larger multiple of 5/);
    expect(() => roundingHierarchy([10, 5])).toThrow(/larger multiple of 10/);
    expect(() => roundingHierarchy([5, 5])).toThrow(/larger multiple/);
    expect(() => roundingHierarchy([0])).toThrow(/whole number ≥ 1/);
    expect(hierarchySpec.safeParse({ type: 'rounding', bases: [5, 10, 100] }).success).toBe(true);
    expect(hierarchySpec.safeParse({ type: 'rounding', bases: [5, 12] }).success).toBe(false);
    expect(hierarchySpec.safeParse({ type: 'rounding', bases: [] }).success).toBe(false);
    expect(hierarchySpec.safeParse({ type: 'rounding', bases: [2.5] }).success).toBe(false);
    expect(hierarchySpec.safeParse({ type: 'rounding', bases: [5], top: 90 }).success).toBe(false);
    expect(maxLevelOf({ type: 'rounding', bases: [5, 10, 100] })).toBe(4);
  });

  it('every level nests in the next: one value one level up (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom([1], [5], [5, 10, 100], [2, 6, 12], [3, 9, 27], [1, 10, 1000]), fc.array(fc.integer({ min: -50000, max: 50000 }).map((c) => c / 100), { maxLength: 200 }), (bases, decimals) => {
        const h = roundingHierarchy(bases);
        const values = [...Array.from({ length: 401 }, (_, i) => String(i - 200)), ...decimals.map(String)];
        for (let level = 0; level + 1 < h.depth; level++) {
          const parentOf = new Map<string, string>();
          for (const v of values) {
            const here = h.generalize(v, level)!;
            const up = h.generalize(v, level + 1)!;
            expect(parentOf.get(here) ?? up).toBe(up);
            parentOf.set(here, up);
          }
        }
        // Each released multiple lies at or below the value and less than one base below it.
        for (const v of values) {
          bases.forEach((b, i) => {
            const r = Number(h.generalize(v, i + 1));
            expect(r % b === 0 || Object.is(r % b, -0)).toBe(true);
            expect(r).toBeLessThanOrEqual(Number(v));
            expect(Number(v) - r).toBeLessThan(b);
          });
        }
      }),
      { numRuns: 60, seed: 3 },
    );
  });
});
