import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hierarchySpec } from '../hierarchy-spec.js';
import { intervalHierarchy } from '../hierarchy.js';

describe('top and bottom coding of interval hierarchies', () => {
  it('codes the extremes at level 1, keeps the rest as collected there, then cuts bands at the codes', () => {
    const ages = intervalHierarchy([5, 20], { top: 90, bottom: 18 });
    expect(ages.depth).toBe(5);
    expect([0, 1, 2, 3, 4].map((l) => ages.generalize('37', l))).toEqual(['37', '37', '35-39', '20-39', '*']);
    expect([1, 2, 3].map((l) => ages.generalize('93', l))).toEqual(['90+', '90+', '90+']);
    expect([1, 2, 3].map((l) => ages.generalize('17', l))).toEqual(['<18', '<18', '<18']);
    // The bands that reach past a code say what they cover.
    expect(ages.generalize('85', 3)).toBe('80-89');
    expect(ages.generalize('19', 2)).toBe('18-19');
    expect(ages.coverage('80-89', 3)).toBe(10);
    expect(ages.coverage('18-19', 2)).toBe(2);
    expect(ages.coverage('37', 1)).toBe(1);
    expect(ages.coverage('90+', 1)).toBe(Infinity);
    // Top coding alone, as sdcMicro's topBotCoding: age ≥ 90 → "90+".
    const top = intervalHierarchy([], { top: 90 });
    expect([0, 1, 2].map((l) => top.generalize('95', l))).toEqual(['95', '90+', '*']);
    expect(top.generalize('45', 1)).toBe('45');
    expect(() => intervalHierarchy([], {})).toThrow(/needs widths, or a top or bottom code/);
    expect(() => intervalHierarchy([10], { top: 10, bottom: 20 })).toThrow(/must lie below the top code/);
  });

  it('every level nests in the next: one value one level up, for any widths and codes (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom([], [5], [5, 10], [2, 6, 12], [10, 20, 40]),
        fc.option(fc.integer({ min: -20, max: 60 }), { nil: undefined }),
        fc.option(fc.integer({ min: 61, max: 120 }), { nil: undefined }),
        (widths, bottom, top) => {
          if (widths.length === 0 && bottom === undefined && top === undefined) return;
          const h = intervalHierarchy(widths, { ...(top !== undefined ? { top } : {}), ...(bottom !== undefined ? { bottom } : {}) });
          for (let level = 0; level + 1 < h.depth; level++) {
            const parentOf = new Map<string, string>();
            for (let v = -40; v <= 140; v++) {
              const here = h.generalize(String(v), level)!;
              const up = h.generalize(String(v), level + 1)!;
              expect(parentOf.get(here) ?? up).toBe(up);
              parentOf.set(here, up);
            }
          }
        },
      ),
      { seed: 20261124, numRuns: 200 },
    );
  });

  it('the job schema takes top and bottom codes, and refuses an empty hierarchy or crossed codes', () => {
    expect(hierarchySpec.parse({ type: 'interval', widths: [], top: 90 })).toEqual({ type: 'interval', widths: [], top: 90 });
    expect(hierarchySpec.safeParse({ type: 'interval', widths: [] }).success).toBe(false);
    expect(hierarchySpec.safeParse({ type: 'interval', widths: [10], top: 10, bottom: 20 }).success).toBe(false);
    expect(hierarchySpec.safeParse({ type: 'interval', widths: [10], top: 1.5 }).success).toBe(false);
  });
});
